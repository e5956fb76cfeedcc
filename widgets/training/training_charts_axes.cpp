// The training charts' axes: their scales and tickers, their labels, and the ranges that
// follow the data. Beside training_charts.cpp, which draws the charts.
#include <qcustomplot.h>
#include <algorithm>
#include <cmath>

#include "widgets/training/training_charts.h"

namespace mrnn::widgets {
namespace {

// Log tick marks only pay off when a range spans decades; within one decade plain ticks
// read better (a loss going 4.2 -> 1.6 would otherwise show a single tick or none).
constexpr double kLogTickerMinRatio = 20.0;

// A range with some air around it, in the axis' own scale.
QCPRange padded(QCPRange range, bool logarithmic) {
  if (logarithmic) {
    if (range.lower <= 0) range.lower = range.upper / 10.0;
    const double ratio = range.upper / range.lower;
    const double factor = ratio > 1.0 ? std::pow(ratio, 0.06) : 1.25;
    return QCPRange(range.lower / factor, range.upper * factor);
  }
  const double span = range.upper - range.lower;
  // A flat series (a constant learning rate) gets a band around its value, not around 0.
  const double flat = std::fabs(range.upper) > 0 ? std::fabs(range.upper) * 0.1 : 0.5;
  const double margin = span > 0 ? span * 0.06 : flat;
  return QCPRange(range.lower - margin, range.upper + margin);
}

// Significant digits that tell apart labels about range.size() / (ticks + 1) apart.
int distinctDigits(const QCPRange& range, int ticks) {
  const double largest = std::max(std::fabs(range.lower), std::fabs(range.upper));
  const double step = range.size() / (ticks + 1);
  if (!(largest > 0) || !(step > 0) || !std::isfinite(largest) || !std::isfinite(step)) return 4;
  const int digits = static_cast<int>(std::floor(std::log10(largest))) -
                     static_cast<int>(std::floor(std::log10(step))) + 1;
  return std::clamp(digits, 4, 9);
}

}  // namespace

void TrainingCharts::applyAxisModes() {
  for (QCustomPlot* target : plots_) {
    if (xAxis_ == XAxis::WallTime) {
      auto ticker = QSharedPointer<QCPAxisTickerTime>::create();
      ticker->setTimeFormat(QStringLiteral("%h:%m:%s"));
      target->xAxis->setTicker(ticker);
    } else {
      target->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    target->yAxis->setScaleType(logScale_ ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  }
  updateTickers();
}

void TrainingCharts::updateTickers() {
  for (QCustomPlot* target : plots_) updateTickers(target);
}

bool TrainingCharts::updateTickers(QCustomPlot* target) {
  QCPAxis* axis = target->yAxis;
  const QCPRange range = axis->range();
  // A label needs about 34 pixels of height: a short chart (the small ones, or any at
  // 720 pixels) gets fewer labels rather than overlapping ones.
  const int height =
      target->axisRect()->height() > 0 ? target->axisRect()->height() : target->height() - 40;
  const int tickCount = std::clamp(height / 34, 2, 5);
  const bool decades =
      logScale_ && range.lower > 0 && range.upper / range.lower >= kLogTickerMinRatio;
  const bool isLog = !axis->ticker().dynamicCast<QCPAxisTickerLog>().isNull();
  bool changed = decades != isLog || axis->ticker()->tickCount() != tickCount;
  if (decades && !isLog) {
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
  } else if (!decades && isLog) {
    axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }
  axis->ticker()->setTickCount(tickCount);
  // Enough digits that neighbouring labels differ (4.7035 and 4.7040, not 4.704 twice).
  if (axis->numberFormat() == QStringLiteral("g")) {
    axis->setNumberPrecision(distinctDigits(range, tickCount));
  }
  // The validation chart's % wrong: 0, 50, 100 on a short chart, every 25 on a taller one.
  auto wrong = target->yAxis2->ticker().dynamicCast<QCPAxisTickerText>();
  if (wrong.isNull()) {
    wrong = QSharedPointer<QCPAxisTickerText>::create();
    target->yAxis2->setTicker(wrong);
  }
  const double step = height < 100 ? 50.0 : 25.0;
  if (wrong->ticks().size() != static_cast<int>(100.0 / step) + 1) {
    wrong->clear();
    for (double at = 0.0; at <= 100.0; at += step) wrong->addTick(at, QString::number(at));
    changed = true;
  }
  return changed;
}

void TrainingCharts::updateLabels() {
  QString xLabel;
  switch (xAxis_) {
    case XAxis::Step:
      xLabel = tr("step");
      break;
    case XAxis::Epoch:
      xLabel = tr("epoch");
      break;
    case XAxis::WallTime:
      xLabel = tr("training time (h:mm:ss)");
      break;
    case XAxis::Symbols:
      xLabel = tr("training symbols read");
      break;
  }
  for (QCustomPlot* target : plots_) target->xAxis->setLabel(xLabel);
  const QString lossUnit = unit_ == Unit::BitsPerSymbol ? tr("bits/symbol")
                           : unit_ == Unit::Perplexity  ? tr("perplexity")
                                                        : tr("squared error");
  plot(Chart::Loss)->yAxis->setLabel(lossUnit);
  plot(Chart::Validation)->yAxis->setLabel(lossUnit);
}

void TrainingCharts::rescale() {
  // One x range for every chart (the union of all data), then each y axis to its data
  // inside it.
  bool anyKey = false;
  QCPRange keys;
  for (QCustomPlot* target : plots_) {
    for (int g = 0; g < target->graphCount(); ++g) {
      if (!target->graph(g)->visible()) continue;
      bool found = false;
      const QCPRange range = target->graph(g)->getKeyRange(found);
      if (!found) continue;
      if (!anyKey) {
        keys = range;
        anyKey = true;
      } else {
        keys.expand(range);
      }
    }
  }
  if (!anyKey) {
    // Nothing to draw: the empty frame, not the ranges of runs no longer shown.
    for (QCustomPlot* target : plots_) {
      target->xAxis->setRange(0, 1);
      target->yAxis->setRange(logScale_ ? QCPRange(0.1, 1) : QCPRange(0, 1));
    }
    return;
  }
  // A little air at both ends so the first and last markers are not cut in half.
  const double air = keys.size() > 0 ? keys.size() * 0.015 : 0.5;
  keys = QCPRange(keys.lower - air, keys.upper + air);
  syncing_ = true;
  for (QCustomPlot* target : plots_) {
    target->xAxis->setRange(keys);
    const QCP::SignDomain domain = logScale_ ? QCP::sdPositive : QCP::sdBoth;
    bool anyValue = false;
    QCPRange values;
    bool anyWrong = false;  // a point on the right axis (the validation chart's % wrong)
    for (int g = 0; g < target->graphCount(); ++g) {
      if (!target->graph(g)->visible()) continue;
      if (target->graph(g)->valueAxis() != target->yAxis) {
        anyWrong = anyWrong || !target->graph(g)->data()->isEmpty();
        continue;
      }
      bool found = false;
      const QCPRange range = target->graph(g)->getValueRange(found, domain, keys);
      if (!found || !std::isfinite(range.lower) || !std::isfinite(range.upper)) continue;
      if (!anyValue) {
        values = range;
        anyValue = true;
      } else {
        values.expand(range);
      }
    }
    // The right axis only where a run shown has the % wrong; 0 to 100, a little air at each end.
    target->yAxis2->setVisible(anyWrong);
    if (anyWrong) target->yAxis2->setRange(-3, 103);
    // A chart none of the shown runs has points for (no validation yet) gets the empty frame.
    target->yAxis->setRange(anyValue    ? padded(values, logScale_)
                            : logScale_ ? QCPRange(0.1, 1)
                                        : QCPRange(0, 1));
  }
  syncing_ = false;
}

}  // namespace mrnn::widgets
