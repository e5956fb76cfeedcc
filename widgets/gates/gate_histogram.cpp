#include "widgets/gates/gate_histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/probing/gate_report.h"
#include "widgets/plot_heights.h"
#include "widgets/run_colours.h"

namespace mrnn::widgets {

namespace {

void paintBars(QCPBars* bars, const QColor& colour) {
  QColor fill = colour;
  fill.setAlpha(110);
  bars->setBrush(fill);
  bars->setPen(QPen(colour, 1.0));
}

QCPBars* makeBars(QCustomPlot* plot, const QColor& colour) {
  auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
  paintBars(bars, colour);
  bars->setWidthType(QCPBars::wtPlotCoords);
  return bars;
}

}  // namespace

GateHistogram::GateHistogram(QWidget* parent) : QCustomPlot(parent) {
  setObjectName(QStringLiteral("gateHistogram"));
  setMinimumHeight(kLeastStackedPlotHeight);
  setToolTip(tr("How the selected probe's values are distributed over all steps and units"));
  plotLayout()->insertRow(0);
  QFont titleFont = font();
  titleFont.setBold(true);
  title_ = new QCPTextElement(this, QString(), titleFont);
  plotLayout()->addElement(0, 0, title_);
  barsA_ = makeBars(this, modelColour(0, 0));
  barsB_ = makeBars(this, modelColour(0, 1));
  xAxis->setLabel(tr("value"));
  yAxis->setLabel(tr("share of values"));
  legend->setVisible(false);
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignHCenter);
  clearHistogram(tr("Run the analysis to see the distribution of a probe"));
}

void GateHistogram::setColours(const QColor& a, const QColor& b) {
  paintBars(barsA_, a);
  paintBars(barsB_, b);
}

std::vector<int64_t> GateHistogram::binCounts(const std::vector<float>& values, double lower,
                                              double upper, int bins) {
  std::vector<int64_t> counts(static_cast<size_t>(std::max(bins, 1)), 0);
  const double width = (upper - lower) / static_cast<double>(counts.size());
  for (const float v : values) {
    if (!std::isfinite(v)) continue;
    const double position = width > 0.0 ? (v - lower) / width : 0.0;
    const auto bin = std::clamp(static_cast<int64_t>(std::floor(position)), int64_t{0},
                                static_cast<int64_t>(counts.size()) - 1);
    ++counts[static_cast<size_t>(bin)];
  }
  return counts;
}

void GateHistogram::setTraces(const engine::ProbeTrace* a, const engine::ProbeTrace* b,
                              const QString& labelA, const QString& labelB, const QString& title) {
  std::array<std::vector<float>, 2> values;
  if (a) values[0] = a->floats();
  if (b) values[1] = b->floats();
  const engine::ProbeTrace* first = a ? a : b;
  if (!first) {
    clearHistogram(tr("No values"));
    return;
  }
  if (first->isGate) {
    lower_ = 0.0;
    upper_ = 1.0;
  } else {
    // Both models on the same bins.
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    for (const auto& model : values) {
      for (const float v : model) {
        if (!std::isfinite(v)) continue;
        low = std::min(low, static_cast<double>(v));
        high = std::max(high, static_cast<double>(v));
      }
    }
    if (!std::isfinite(low)) low = high = 0.0;
    if (high - low < 1e-9) {
      low -= 0.5;
      high += 0.5;
    }
    lower_ = low;
    upper_ = high;
  }
  const double width = binWidth();
  std::array<QCPBars*, 2> bars{barsA_, barsB_};
  const std::array<QString, 2> labels{labelA, labelB};
  double tallest = 0.0;
  for (size_t m = 0; m < 2; ++m) {
    const engine::ProbeTrace* trace = m == 0 ? a : b;
    counts_[m].clear();
    bars[m]->data()->clear();
    bars[m]->setVisible(trace != nullptr);
    bars[m]->removeFromLegend();
    if (!trace) continue;
    counts_[m] = binCounts(values[m], lower_, upper_, kBins);
    const auto total = static_cast<double>(std::max<size_t>(values[m].size(), 1));
    QVector<double> keys;
    QVector<double> shares;
    for (int i = 0; i < kBins; ++i) {
      keys << lower_ + (i + 0.5) * width;
      const double share = static_cast<double>(counts_[m][static_cast<size_t>(i)]) / total;
      shares << share;
      tallest = std::max(tallest, share);
    }
    bars[m]->setWidth(width);
    bars[m]->setData(keys, shares, true);
    bars[m]->setName(labels[m]);
    if (a && b) bars[m]->addToLegend();
  }
  legend->setVisible(a && b);
  title_->setText(title);
  xAxis->setRange(lower_, upper_);
  yAxis->setRange(0.0, tallest > 0.0 ? tallest * 1.08 : 1.0);
  replot();
}

void GateHistogram::clearHistogram(const QString& message) {
  for (size_t m = 0; m < 2; ++m) {
    counts_[m].clear();
    QCPBars* bars = m == 0 ? barsA_ : barsB_;
    bars->data()->clear();
    bars->setVisible(false);
    bars->removeFromLegend();
  }
  legend->setVisible(false);
  title_->setText(message);
  xAxis->setRange(0.0, 1.0);
  yAxis->setRange(0.0, 1.0);
  replot();
}

const std::vector<int64_t>& GateHistogram::counts(int model) const {
  return counts_[model == 0 ? 0 : 1];
}

QString GateHistogram::title() const {
  return title_->text();
}

}  // namespace mrnn::widgets
