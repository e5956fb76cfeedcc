#include "widgets/training/rank_graphs.h"

#include <qcustomplot.h>
#include <array>
#include <iterator>

#include "widgets/series_style.h"

namespace mrnn::widgets {
namespace {

// The characters that draw seriesShape()'s markers, in its order.
const char* const kMarkerText[] = {"\u25cf", "\u25a0", "\u25b2", "\u25c6",
                                   "\u25bc", "\u22a0", "\u2295", "\u2605"};

}  // namespace

RankGraphs::RankGraphs(QCustomPlot* plot, const QString& layer) : plot_(plot), layer_(layer) {}

QColor RankGraphs::rankColor(int rank) {
  static const std::array<QColor, 8> palette = {QColor(0x1b, 0x9e, 0x77), QColor(0xd9, 0x5f, 0x02),
                                                QColor(0x75, 0x70, 0xb3), QColor(0xe7, 0x29, 0x8a),
                                                QColor(0x66, 0xa6, 0x1e), QColor(0xe6, 0xab, 0x02),
                                                QColor(0xa6, 0x76, 0x1d), QColor(0x66, 0x66, 0x66)};
  return palette[static_cast<size_t>(rank) % palette.size()];
}

QString RankGraphs::rankMarker(int rank) {
  return QString::fromUtf8(kMarkerText[static_cast<size_t>(rank) % std::size(kMarkerText)]);
}

void RankGraphs::resize(int count) {
  while (graphs_.size() > count) plot_->removeGraph(graphs_.takeLast());
  while (graphs_.size() < count) {
    QCPGraph* graph = plot_->addGraph();
    const QColor color = rankColor(graphs_.size());
    QColor line = color;
    line.setAlpha(190);  // the run's total, drawn over the ranks, stays readable
    QPen pen(line);
    pen.setWidthF(1.0);
    graph->setPen(pen);
    graph->setScatterStyle(QCPScatterStyle(seriesShape(static_cast<size_t>(graphs_.size())), color,
                                           QColor(Qt::white), 6));
    graph->setAdaptiveSampling(true);
    graph->setName(QStringLiteral("rank %1").arg(graphs_.size()));
    graph->removeFromLegend();
    graph->setLayer(layer_);
    graph->setVisible(visible_);
    graphs_.append(graph);
  }
}

void RankGraphs::refill(const QVector<Curve>& curves, const KeyOf& keyOf) {
  resize(curves.size());
  for (int r = 0; r < curves.size(); ++r) {
    QVector<double> keys;
    QVector<double> values;
    keys.reserve(curves[r].size());
    values.reserve(curves[r].size());
    for (const CurvePoint& point : curves[r]) {
      keys.append(keyOf(point));
      values.append(point.value);
    }
    graphs_[r]->setData(keys, values);
  }
  spaceMarkers();
}

void RankGraphs::spaceMarkers() {
  for (QCPGraph* graph : graphs_) graph->setScatterSkip(graph->dataCount() / kMarkersPerLine);
}

void RankGraphs::addStep(const std::vector<double>& rates, double key) {
  if (graphs_.size() < static_cast<int>(rates.size())) resize(static_cast<int>(rates.size()));
  for (size_t r = 0; r < rates.size(); ++r) graphs_[static_cast<int>(r)]->addData(key, rates[r]);
  spaceMarkers();
}

void RankGraphs::setVisible(bool visible) {
  visible_ = visible;
  for (QCPGraph* graph : graphs_) graph->setVisible(visible);
}

}  // namespace mrnn::widgets
