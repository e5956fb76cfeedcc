#include "widgets/data/symbol_histogram.h"

#include <qcustomplot.h>
#include <QLabel>
#include <QLocale>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>

#include "widgets/display_format.h"

namespace mrnn::widgets {
namespace {

constexpr int kPlotPage = 0;
constexpr int kMessagePage = 1;
const QColor kBarColor(52, 101, 164);

}  // namespace

SymbolHistogram::SymbolHistogram(QWidget* parent) : QWidget(parent) {
  stack_ = new QStackedWidget(this);
  plot_ = new QCustomPlot(stack_);
  plot_->setObjectName(QStringLiteral("symbolHistogramPlot"));
  plot_->setMinimumHeight(160);
  bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
  bars_->setWidth(0.75);
  bars_->setPen(QPen(kBarColor.darker(120)));
  bars_->setBrush(kBarColor);

  QCPAxis* x = plot_->xAxis;
  x->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  x->setSubTicks(false);
  x->setTickLength(0, 3);
  x->grid()->setVisible(false);
  x->setTickLabelRotation(0);
  QFont labelFont = font();
  labelFont.setPointSizeF(labelFont.pointSizeF() * 0.85);
  x->setTickLabelFont(labelFont);
  QCPAxis* y = plot_->yAxis;
  y->setLabel(tr("share of training symbols (%)"));
  y->setTickLabelFont(labelFont);
  y->grid()->setPen(QPen(QColor(220, 220, 220), 0, Qt::DotLine));
  y->setRangeLower(0);
  plot_->axisRect()->setAutoMargins(QCP::msLeft | QCP::msBottom | QCP::msTop);
  plot_->axisRect()->setMargins(QMargins(0, 0, 12, 0));
  plot_->setMouseTracking(true);
  connect(plot_, &QCustomPlot::mouseMove, this, &SymbolHistogram::showToolTip);

  message_ = new QLabel(stack_);
  message_->setObjectName(QStringLiteral("histogramMessage"));
  message_->setAlignment(Qt::AlignCenter);
  message_->setWordWrap(true);
  message_->setEnabled(false);  // drawn greyed: a placeholder, not content

  stack_->insertWidget(kPlotPage, plot_);
  stack_->insertWidget(kMessagePage, message_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
  showMessage(tr("No corpus scanned yet."));
}

void SymbolHistogram::setCounts(const QVector<SymbolCount>& counts, qint64 total) {
  counts_ = counts;
  total_ = total;
  if (counts.isEmpty() || total <= 0) {
    showMessage(tr("The training split has no symbols."));
    return;
  }
  QVector<double> keys;
  QVector<double> values;
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  double highest = 0.0;
  for (int i = 0; i < counts.size(); ++i) {
    const double share = 100.0 * static_cast<double>(counts[i].count) / static_cast<double>(total);
    keys << i;
    values << share;
    highest = std::max(highest, share);
    ticker->addTick(i, counts[i].label);
  }
  bars_->setData(keys, values, true);
  plot_->xAxis->setTicker(ticker);
  // Single characters read best upright; longer labels (words, byte codes) stand on end.
  int longest = 0;
  for (const SymbolCount& count : counts) longest = std::max(longest, int(count.label.size()));
  plot_->xAxis->setTickLabelRotation(longest > 1 ? -90 : 0);
  plot_->xAxis->setRange(-0.7, counts.size() - 0.3);
  plot_->yAxis->setRange(0, highest * 1.08);
  stack_->setCurrentIndex(kPlotPage);
  plot_->replot();
}

void SymbolHistogram::showMessage(const QString& message) {
  counts_.clear();
  total_ = 0;
  bars_->data()->clear();
  message_->setText(message);
  stack_->setCurrentIndex(kMessagePage);
}

QStringList SymbolHistogram::labels() const {
  QStringList result;
  for (const SymbolCount& count : counts_) result << count.label;
  return result;
}

void SymbolHistogram::showToolTip(QMouseEvent* event) {
  if (counts_.isEmpty()) return;
  const double key = plot_->xAxis->pixelToCoord(event->pos().x());
  const int index = static_cast<int>(std::lround(key));
  const double value = plot_->yAxis->pixelToCoord(event->pos().y());
  if (index < 0 || index >= counts_.size() || std::abs(key - index) > 0.4 || value < 0) {
    QToolTip::hideText();
    return;
  }
  const SymbolCount& count = counts_[index];
  const double share = 100.0 * static_cast<double>(count.count) / static_cast<double>(total_);
  QToolTip::showText(event->globalPosition().toPoint(),
                     tr("%1\n%2 times, %3% of the training split")
                         .arg(count.description, formatCount(count.count))
                         .arg(share, 0, 'f', 2),
                     plot_);
}

}  // namespace mrnn::widgets
