#include "widgets/surprisal/surprisal_legend.h"

#include <QFontMetrics>
#include <QLinearGradient>
#include <QPainter>

#include <cstdlib>

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
  switch (colourBy) {
    case ColourBy::Bits:
      setToolTip(
          tr("Background: the symbol's surprisal, -log2 p, in bits (white: the model "
             "was certain; deep red: 8 bits or more, p <= 1/256)"));
      break;
    case ColourBy::Rank:
      setToolTip(
          tr("Background: where the symbol ranked among the model's predictions, as "
             "GLTR shows it: its top choice, in its top 10, in its top 100, or below"));
      break;
    case ColourBy::Difference:
      setToolTip(
          tr("Background: model A's surprisal minus model B's, in bits. Blue: A "
             "expected the symbol more than B did; red: A was more surprised; white: "
             "they agree. Saturates at 4 bits either way."));
      break;
  }
  updateGeometry();
  update();
}

QString SurprisalLegend::tickLabel(int tick) const {
  if (colourBy_ == ColourBy::Bits) {
    return tick == 8 ? QStringLiteral("8+ bits") : QString::number(tick);
  }
  if (tick == 0) return QStringLiteral("0");
  const QString sign = tick < 0 ? QStringLiteral("\u2212") : QStringLiteral("+");
  return sign + QString::number(std::abs(tick)) + (tick == 4 ? QStringLiteral(" bits") : QString());
}

QSize SurprisalLegend::sizeHint() const {
  const QFontMetrics metrics(font());
  if (colourBy_ != ColourBy::Rank) {
    return {
        kBarWidth + metrics.horizontalAdvance(tickLabel(colourBy_ == ColourBy::Bits ? 8 : 4)) + 8,
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
  if (colourBy_ != ColourBy::Rank) {
    // The bar is drawn one pixel column at a time from the scale itself, so it cannot
    // disagree with the text's colours.
    const bool bits = colourBy_ == ColourBy::Bits;
    const int low = bits ? 0 : -4;
    const int high = bits ? 8 : 4;
    const QRect bar(4, 2, kBarWidth - 8, kBarHeight);
    for (int x = 0; x < bar.width(); ++x) {
      const double value = low + (high - low) * static_cast<double>(x) / (bar.width() - 1);
      painter.fillRect(
          QRect(bar.left() + x, bar.top(), 1, bar.height()),
          bits ? SurprisalScale::bitsColour(value) : SurprisalScale::differenceColour(value));
    }
    painter.setPen(QColor(0x80, 0x80, 0x80));
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
    painter.setPen(palette().color(QPalette::WindowText));
    const int y = bar.bottom() + 1 + metrics.ascent();
    for (int tick = low; tick <= high; tick += 2) {
      const int x = bar.left() + (tick - low) * (bar.width() - 1) / (high - low);
      const QString label = tickLabel(tick);
      // The last label's unit runs on to the right of its tick.
      const QString centred =
          tick == high ? tickLabel(tick).section(QLatin1Char(' '), 0, 0) : label;
      painter.drawText(x - metrics.horizontalAdvance(centred) / 2, y, label);
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
