// The training charts' read-out: what the mouse over a chart reads off every shown run at
// that x, in a box on the chart under it and as a line across the others. Beside
// training_charts.cpp, which draws the charts.
#include <qcustomplot.h>

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <optional>

#include "widgets/training/rank_graphs.h"
#include "widgets/training/seed_band.h"
#include "widgets/training/training_charts.h"

namespace mrnn::widgets {
namespace {

// The numbers' locale, as the charts': "25,000", not "25000".
QLocale readoutLocale() {
  return QLocale(QLocale::English, QLocale::UnitedStates);
}

// A value as the read-out prints it: four significant digits, whole numbers from 1,000.
QString readoutValue(double value) {
  if (std::fabs(value) >= 1000.0) return readoutLocale().toString(value, 'f', 0);
  return readoutLocale().toString(value, 'g', 4);
}

// The value of `graph` at the point nearest `key`, when `key` lies within the graph's points
// (give or take `tolerance`): a run that ended before `key`, or starts after it, has nothing
// to say there; a sparse series (validation) answers with its nearest point.
std::optional<double> valueNear(const QCPGraph* graph, double key, double tolerance) {
  const auto data = graph->data();
  if (data->isEmpty()) return std::nullopt;
  if (key < data->constBegin()->key - tolerance || key > (data->constEnd() - 1)->key + tolerance) {
    return std::nullopt;
  }
  auto above = data->findBegin(key, false);  // the first point at or after key
  auto nearest = above;
  if (above == data->constEnd() ||
      (above != data->constBegin() && key - (above - 1)->key < above->key - key)) {
    nearest = above - 1;
  }
  if (!std::isfinite(nearest->value)) return std::nullopt;
  return nearest->value;
}

}  // namespace

QString TrainingCharts::keyText(double key) const {
  switch (xAxis_) {
    case XAxis::Step:
      return tr("step %1").arg(readoutLocale().toString(std::llround(key)));
    case XAxis::Epoch:
      return tr("epoch %1").arg(readoutLocale().toString(key, 'f', 2));
    case XAxis::WallTime: {
      const auto seconds = std::max<long long>(0, std::llround(key));
      return tr("%1:%2:%3")
          .arg(seconds / 3600)
          .arg(seconds / 60 % 60, 2, 10, QLatin1Char('0'))
          .arg(seconds % 60, 2, 10, QLatin1Char('0'));
    }
    case XAxis::Symbols:
      return tr("%1 symbols").arg(readoutLocale().toString(std::llround(key)));
  }
  return {};
}

void TrainingCharts::onHover(QCustomPlot* target, const QPoint& position) {
  // Over the curves the read-out speaks; the chart's tooltip would cover it, so it is kept
  // for the title and axes.
  const bool overCurves = target->axisRect()->rect().contains(position);
  if (overCurves && !target->toolTip().isEmpty()) {
    target->setProperty("chartToolTip", target->toolTip());
    target->setToolTip(QString());
  } else if (!overCurves && target->toolTip().isEmpty()) {
    target->setToolTip(target->property("chartToolTip").toString());
  }
  if (!overCurves || !placeholder_ || placeholder_->visible()) {
    hideReadout();
    return;
  }
  for (size_t i = 0; i < plots_.size(); ++i) {
    if (plots_[i] == target) {
      showReadout(static_cast<Chart>(i), target->xAxis->pixelToCoord(position.x()));
      return;
    }
  }
}

void TrainingCharts::showReadout(Chart chart, double key) {
  QCustomPlot* target = plot(chart);
  // Nearest points within a few pixels' worth of x count as "at" the mouse.
  const double tolerance =
      std::max(target->xAxis->range().size() * 0.02,
               std::fabs(target->xAxis->pixelToCoord(8) - target->xAxis->pixelToCoord(0)));
  const Series series = chart == Chart::Loss           ? Series::LossSmoothed
                        : chart == Chart::Validation   ? Series::Validation
                        : chart == Chart::LearningRate ? Series::LearningRate
                        : chart == Chart::GradientNorm ? Series::GradientNorm
                        : chart == Chart::CgIterations ? Series::CgIterations
                                                       : Series::Throughput;
  QVector<ChartReadout::Line> lines;
  for (int index = 0; index <= overlayCount(); ++index) {
    const RunGraphs* run = runAt(index);
    if (!run->visible || run->curves.isEmpty()) continue;
    const auto value = valueNear(run->graphs[static_cast<size_t>(series)], key, tolerance);
    const auto read = [&](Series other) {
      return valueNear(run->graphs[static_cast<size_t>(other)], key, tolerance);
    };
    QString text;
    if (value) text = QStringLiteral("%1   %2").arg(run->curves.label(), readoutValue(*value));
    // A seed group: its spread beside its mean.
    const SeedBand* band = chart == Chart::Loss         ? run->lossBand.get()
                           : chart == Chart::Validation ? run->validationBand.get()
                                                        : nullptr;
    if (value && band) {
      if (const auto upper = valueNear(band->upper(), key, tolerance)) {
        if (const auto lower = valueNear(band->lower(), key, tolerance)) {
          text += QStringLiteral(" ± %1").arg(readoutValue((*upper - *lower) / 2.0));
        }
      }
    }
    if (chart == Chart::Validation && value) {
      if (const auto wrong = read(Series::ErrorRate)) {
        text += tr(" · %1% wrong").arg(readoutLocale().toString(*wrong, 'f', 1));
      }
    }
    if (chart == Chart::LearningRate && !value) {
      if (const auto lambda = read(Series::Lambda)) {
        text = tr("%1   λ %2").arg(run->curves.label(), readoutValue(*lambda));
      }
    }
    if (chart == Chart::CgIterations && value) {
      // ρ is read off the curves: a rise of the loss makes it −∞, which no axis can hold.
      double rho = std::nan("");
      double nearest = tolerance;
      for (const CurvePoint& point : run->curves.curve(RunMetric::Rho)) {
        if (std::fabs(keyOf(point) - key) <= nearest) {
          nearest = std::fabs(keyOf(point) - key);
          rho = point.value;
        }
      }
      text += tr(" (kept %1, ρ %2)")
                  .arg(readoutValue(read(Series::KeptIterate).value_or(0.0)),
                       std::isinf(rho) ? QStringLiteral("−∞") : readoutValue(rho));
    }
    if (text.isEmpty()) continue;
    lines.append({text, runColor(run->colorIndex).darker(115)});
  }
  for (int rank = 0; chart == Chart::Throughput && live_.visible && rank < liveRankCount();
       ++rank) {  // the live run's ranks, under its total
    if (const auto value = valueNear(liveRanks_->graph(rank), key, tolerance)) {
      lines.append({tr("  rank %1   %2").arg(rank).arg(readoutValue(*value)),
                    RankGraphs::rankColor(rank).darker(115)});
    }
  }
  const QString unit = target->yAxis->label();
  const QString heading =
      unit.isEmpty() ? keyText(key) : QStringLiteral("%1 · %2").arg(keyText(key), unit);
  for (size_t i = 0; i < plots_.size(); ++i) {
    if (plots_[i] == target) {
      readouts_[i]->showBox(key, heading, lines);
    } else {
      readouts_[i]->showLine(key);
    }
    plots_[i]->replot(QCustomPlot::rpQueuedReplot);
  }
}

void TrainingCharts::hideReadout() {
  for (size_t i = 0; i < plots_.size(); ++i) {
    if (!readouts_[i] || !readouts_[i]->isVisible()) continue;
    readouts_[i]->hide();
    plots_[i]->replot(QCustomPlot::rpQueuedReplot);
  }
}

QString TrainingCharts::readoutText(Chart chart) const {
  return readouts_[static_cast<size_t>(chart)]->text();
}

}  // namespace mrnn::widgets
