#include "widgets/masking/size_validation_plot.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "widgets/display_format.h"
#include "widgets/plot_heights.h"
#include "widgets/series_style.h"

namespace mrnn::widgets {

namespace {

constexpr double kHoverPixels = 8.0;
constexpr size_t kMaxPointLabels = 30;  // beyond that the run ids would only be clutter

}  // namespace

SizeValidationPlot::SizeValidationPlot(QWidget* parent) : QCustomPlot(parent) {
  setObjectName(QStringLiteral("sizeValidationPlot"));
  setMinimumSize(360, kLeastPlotHeight);
  setMouseTracking(true);
  xAxis->setLabel(tr("parameters"));
  xAxis->setScaleType(QCPAxis::stLogarithmic);
  auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
  ticker->setSubTickCount(8);
  xAxis->setTicker(ticker);
  xAxis->setNumberFormat(QStringLiteral("eb"));  // 10^5 written as a power
  xAxis->setNumberPrecision(0);
  // A tick at the right end of the range draws half its label past the axis: room for it.
  axisRect()->setMinimumMargins(QMargins(0, 0, 28, 0));
  yAxis->setLabel(tr("best validation loss (bits per symbol)"));
  QFont legendFont = font();
  legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
  legend->setFont(legendFont);
  legend->setBrush(QColor(255, 255, 255, 220));
  // Larger models sit low on the right; small ones high on the left: upper right is free.
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  connect(this, &QCustomPlot::mouseMove, this, &SizeValidationPlot::hover);
  setRuns({});
}

QString SizeValidationPlot::describe(const engine::RunRecord& run) {
  return tr("Run %1 · %2\n%3 · %4 parameters\nbest valid %5 bits/symbol · %6")
      .arg(run.id)
      .arg(QString::fromStdString(run.name), QString::fromStdString(run.modelType),
           formatCount(run.parameters),
           run.bestValid ? QString::number(*run.bestValid, 'f', 4) : QStringLiteral("-"),
           QString::fromStdString(engine::runStatusName(run.status)));
}

QCPGraph* SizeValidationPlot::graphOf(const QString& modelType) const {
  const int index = types_.indexOf(modelType);
  return index >= 0 ? graphs_[static_cast<size_t>(index)] : nullptr;
}

void SizeValidationPlot::setRuns(const std::vector<engine::RunRecord>& runs) {
  runs_.clear();
  for (const auto& run : runs) {
    if (run.bestValid && run.parameters > 0) runs_.push_back(run);
  }
  std::set<std::string> names;
  for (const auto& run : runs_) names.insert(run.modelType);
  types_.clear();
  for (const auto& name : names) types_.append(QString::fromStdString(name));
  clearPlottables();
  clearItems();
  graphs_.clear();
  hovered_ = -1;
  for (int t = 0; t < types_.size(); ++t) {
    const QColor colour = seriesColour(static_cast<size_t>(t));
    auto* graph = addGraph();
    graph->setName(types_[t]);
    graph->setPen(QPen(colour, 1.5));
    graph->setScatterStyle(QCPScatterStyle(seriesShape(static_cast<size_t>(t)), colour, colour, 8));
    // The line joins the best run of each size (two runs of one size would otherwise be
    // joined by a vertical stroke); the other runs of a size are markers alone.
    std::map<int64_t, double> best;
    QVector<double> otherKeys, otherValues;
    for (const auto& run : runs_) {
      if (QString::fromStdString(run.modelType) != types_[t]) continue;
      const auto found = best.find(run.parameters);
      if (found == best.end()) {
        best[run.parameters] = *run.bestValid;
        continue;
      }
      otherKeys.append(static_cast<double>(run.parameters));
      otherValues.append(std::max(found->second, *run.bestValid));
      found->second = std::min(found->second, *run.bestValid);
    }
    QVector<double> keys, values;
    for (const auto& [parameters, value] : best) {
      keys.append(static_cast<double>(parameters));
      values.append(value);
    }
    graph->setData(keys, values);  // sorted by size: the line follows the scaling
    graphs_.push_back(graph);
    if (!otherKeys.isEmpty()) {
      auto* others = addGraph();
      others->setLineStyle(QCPGraph::lsNone);
      others->setScatterStyle(graph->scatterStyle());
      others->setData(otherKeys, otherValues, false);
      others->removeFromLegend();
    }
  }
  if (runs_.size() <= kMaxPointLabels) {
    for (const auto& run : runs_) {
      auto* label = new QCPItemText(this);
      label->position->setCoords(static_cast<double>(run.parameters), *run.bestValid);
      label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
      label->setPadding(QMargins(5, 0, 0, 3));
      label->setText(QString::number(run.id));
      label->setColor(QColor(0x55, 0x55, 0x55));
      QFont small = font();
      small.setPointSizeF(small.pointSizeF() * 0.8);
      label->setFont(small);
    }
  }
  legend->setVisible(!types_.isEmpty());
  fitRanges();
  replot();
}

void SizeValidationPlot::fitRanges() {
  double fewest = std::numeric_limits<double>::infinity(), most = 0.0;
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const auto& run : runs_) {
    fewest = std::min(fewest, static_cast<double>(run.parameters));
    most = std::max(most, static_cast<double>(run.parameters));
    low = std::min(low, *run.bestValid);
    high = std::max(high, *run.bestValid);
  }
  if (runs_.empty()) {
    xAxis->setRange(1e4, 1e7);
    yAxis->setRange(1.0, 3.0);
    return;
  }
  // A factor of 1.6 either side on the log axis leaves room for markers and run ids.
  xAxis->setRange(fewest / 1.6, most * 1.6);
  const double margin = high > low ? 0.1 * (high - low) : 0.05 * std::max(1.0, high);
  yAxis->setRange(low - margin, high + margin);
}

int SizeValidationPlot::runAt(const QPointF& pixel) const {
  int best = -1;
  double bestDistance = kHoverPixels;
  for (size_t i = 0; i < runs_.size(); ++i) {
    const double x = xAxis->coordToPixel(static_cast<double>(runs_[i].parameters));
    const double y = yAxis->coordToPixel(*runs_[i].bestValid);
    const double distance = std::hypot(x - pixel.x(), y - pixel.y());
    if (distance <= bestDistance) {
      bestDistance = distance;
      best = static_cast<int>(i);
    }
  }
  return best;
}

void SizeValidationPlot::hover(QMouseEvent* event) {
  const int index = runAt(event->position());
  if (index >= 0) {
    QToolTip::showText(event->globalPosition().toPoint(),
                       describe(runs_[static_cast<size_t>(index)]), this);
  } else if (hovered_ >= 0) {
    QToolTip::hideText();
  }
  if (index != hovered_) {
    hovered_ = index;
    emit runHovered(index);
  }
}

}  // namespace mrnn::widgets
