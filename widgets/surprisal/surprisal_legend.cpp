#include "widgets/surprisal/surprisal_legend.h"

#include <QFontMetrics>
#include <QLinearGradient>
#include <QPainter>

namespace mrnn::widgets {
namespace {

constexpr int kBarWidth = 200;
constexpr int kBarHeight = 10;
constexpr int kSwatch = 12;
constexpr int kGap = 10;

}  // namespace

SurprisalLegend::SurprisalLegend(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("surprisalLegend"));
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  setColourBy(ColourBy::Bits);
}

void SurprisalLegend::setColourBy(ColourBy colourBy) {
  colourBy_ = colourBy;
  setToolTip(colourBy == ColourBy::Bits
                 ? tr("Background: the symbol's surprisal, -log2 p, in bits (white: the model "
                      "was certain; deep red: 8 bits or more, p <= 1/256)")
                 : tr("Background: where the symbol ranked among the model's predictions, as "
                      "GLTR shows it: its top choice, in its top 10, in its top 100, or below"));
  updateGeometry();
  update();
}

QSize SurprisalLegend::sizeHint() const {
  const QFontMetrics metrics(font());
  if (colourBy_ == ColourBy::Bits) {
    return {kBarWidth + metrics.horizontalAdvance(QStringLiteral("8+ bits")) + 8,
            kBarHeight + metrics.height() + 4};
  }
  int width = 0;
  for (int b = 0; b < SurprisalScale::kBuckets; ++b) {
    width += kSwatch + 4 + metrics.horizontalAdvance(SurprisalScale::bucketName(b)) + kGap;
  }
  return {width, std::max(kSwatch, metrics.height()) + 4};
}

void SurprisalLegend::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing, false);
  const QFontMetrics metrics(font());
  painter.setPen(palette().color(QPalette::WindowText));
  if (colourBy_ == ColourBy::Bits) {
    // The bar is drawn one pixel column at a time from the scale itself, so it cannot
    // disagree with the text's colours.
    const QRect bar(4, 2, kBarWidth - 8, kBarHeight);
    for (int x = 0; x < bar.width(); ++x) {
      const double bits = SurprisalScale::kMaxBits * x / (bar.width() - 1);
      painter.fillRect(QRect(bar.left() + x, bar.top(), 1, bar.height()),
                       SurprisalScale::bitsColour(bits));
    }
    painter.setPen(QColor(0x80, 0x80, 0x80));
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
    painter.setPen(palette().color(QPalette::WindowText));
    const int y = bar.bottom() + 1 + metrics.ascent();
    for (int bits = 0; bits <= 8; bits += 2) {
      const int x = bar.left() + bits * (bar.width() - 1) / 8;
      const QString label = bits == 8 ? QStringLiteral("8+ bits") : QString::number(bits);
      const int w = metrics.horizontalAdvance(label);
      painter.drawText(
          bits == 8 ? x - metrics.horizontalAdvance(QStringLiteral("8")) / 2 : x - w / 2, y, label);
    }
    return;
  }
  int x = 0;
  const int top = (height() - kSwatch) / 2;
  for (int b = 0; b < SurprisalScale::kBuckets; ++b) {
    const QRect swatch(x, top, kSwatch, kSwatch);
    painter.fillRect(swatch, SurprisalScale::bucketColour(b));
    painter.setPen(QColor(0x80, 0x80, 0x80));
    painter.drawRect(swatch.adjusted(0, 0, -1, -1));
    painter.setPen(palette().color(QPalette::WindowText));
    const QString name = SurprisalScale::bucketName(b);
    x += kSwatch + 4;
    painter.drawText(x, (height() + metrics.ascent() - metrics.descent()) / 2, name);
    x += metrics.horizontalAdvance(name) + kGap;
  }
}

}  // namespace mrnn::widgets
