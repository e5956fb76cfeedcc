#include "widgets/monospace_font.h"

#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QStringList>

namespace mrnn::widgets {

bool drawsMonospaced(const QFont& font) {
  const QFontMetricsF metrics(font);
  const qreal narrow = metrics.horizontalAdvance(QStringLiteral("iiiiil"));
  const qreal wide = metrics.horizontalAdvance(QStringLiteral("MMMWWm"));
  return narrow > 0 && qAbs(narrow - wide) < 0.5;
}

QFont monospaceFont() {
  static const QFont chosen = [] {
    const QFont system = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (drawsMonospaced(system)) return system;
    const QStringList installed = QFontDatabase::families();
    for (const char* family :
         {"DejaVu Sans Mono", "Liberation Mono", "Noto Sans Mono", "Noto Mono", "Hack",
          "Source Code Pro", "Ubuntu Mono", "Nimbus Mono PS", "Courier New", "FreeMono"}) {
      if (!installed.contains(QString::fromLatin1(family))) continue;
      QFont font(QString::fromLatin1(family), system.pointSize());
      font.setStyleHint(QFont::TypeWriter);
      if (drawsMonospaced(font)) return font;
    }
    QFont fallback = system;
    fallback.setStyleHint(QFont::TypeWriter);
    fallback.setFixedPitch(true);
    return fallback;
  }();
  return chosen;
}

}  // namespace mrnn::widgets
