#include "widgets/visible_symbol.h"

namespace mrnn::widgets {

QString visibleSymbol(const std::string& text) {
  if (text == "<eos>") return QStringLiteral("↵ <eos>");
  QString shown = QString::fromUtf8(text);
  shown.replace(QLatin1Char('\n'), QChar(0x21B5));
  shown.replace(QLatin1Char('\t'), QChar(0x21E5));
  if (shown.trimmed().isEmpty()) shown.replace(QLatin1Char(' '), QChar(0x2423));
  return shown;
}

}  // namespace mrnn::widgets
