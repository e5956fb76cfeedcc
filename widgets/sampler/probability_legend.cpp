#include "widgets/sampler/probability_legend.h"

#include <QFontMetrics>
#include <QLinearGradient>
#include <QPainter>

#include "widgets/sampler/probability_scale.h"

namespace mrnn::widgets {
namespace {

constexpr int kBarWidth = 180;
constexpr int kBarHeight = 10;
constexpr int kGap = 8;

QString caption() {
  return QObject::tr("Probability of each generated symbol");
}

}  // namespace

ProbabilityLegend::ProbabilityLegend(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("probabilityLegend"));
  setToolTip(
      tr("Each generated symbol's background shows the probability the model gave it "
         "(before temperature, top-k and top-p). Hover a symbol for its value; click it "
         "for the alternatives."));
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

QSize ProbabilityLegend::sizeHint() const {
  const QFontMetrics metrics(font());
  const int captionWidth = metrics.horizontalAdvance(caption());
  const int height = kBarHeight + metrics.height() + 4;
  return {captionWidth + kGap + metrics.horizontalAdvance(QStringLiteral("0")) + kBarWidth +
              metrics.horizontalAdvance(QStringLiteral("1")) + 4,
          height};
}

void ProbabilityLegend::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing, false);
  const QFontMetrics metrics(font());
  const QColor textColor = palette().color(QPalette::WindowText);
  painter.setPen(textColor);
  const int captionWidth = metrics.horizontalAdvance(caption());
  painter.drawText(QRect(0, 0, captionWidth, kBarHeight + 2), Qt::AlignLeft | Qt::AlignVCenter,
                   caption());

  const int left = captionWidth + kGap + metrics.horizontalAdvance(QStringLiteral("0")) / 2;
  const QRect bar(left, 1, kBarWidth, kBarHeight);
  QLinearGradient gradient(bar.topLeft(), bar.topRight());
  // The scale runs along the hue circle; eleven stops follow it closely enough.
  for (int i = 0; i <= 10; ++i) {
    gradient.setColorAt(i / 10.0, ProbabilityScale::background(i / 10.0));
  }
  painter.fillRect(bar, gradient);
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawRect(bar.adjusted(0, 0, -1, -1));

  // Ticks and labels under the bar at 0, 0.5 and 1.
  painter.setPen(textColor);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  painter.setFont(small);
  const QFontMetrics smallMetrics(small);
  const double ticks[] = {0.0, 0.25, 0.5, 0.75, 1.0};
  for (const double tick : ticks) {
    const int x = bar.left() + static_cast<int>(tick * (bar.width() - 1));
    painter.drawLine(x, bar.bottom() + 1, x, bar.bottom() + 3);
    const QString label = QString::number(tick);
    const int width = smallMetrics.horizontalAdvance(label);
    painter.drawText(QPoint(x - width / 2, bar.bottom() + 3 + smallMetrics.ascent()), label);
  }
}

}  // namespace mrnn::widgets
