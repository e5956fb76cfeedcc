#pragma once

#include <QColor>
#include <QVector>
#include <functional>
#include <vector>

#include "widgets/training/run_curves.h"

class QCustomPlot;
class QCPGraph;

namespace mrnn::widgets {

// The throughput chart's line per rank of the live run when it trains on several processes:
// each rank's own symbols per second, thin, in its own colour and with its own marker every
// few points (rankColor(), rankMarker(): the monitor's per-rank read-out shows the same, and
// the markers tell the ranks from the other runs' dashed lines, whatever their colours), so
// that a rank slower than the others stands out below them. Created as ranks appear; none
// for a run on one process.
class RankGraphs {
 public:
  using KeyOf = std::function<double(const CurvePoint&)>;

  // The graphs go on `plot`'s layer `layer`.
  RankGraphs(QCustomPlot* plot, const QString& layer);

  // Colour-blind-safe colours (ColorBrewer Dark2), none of them the live run's blue.
  static QColor rankColor(int rank);
  // The rank's marker as a character, for text beside the chart ("●", "■", "▲", ...).
  static QString rankMarker(int rank);
  // Markers on about this many points of each line.
  static constexpr int kMarkersPerLine = 12;

  // Draws `curves` (rank r at index r) again, as many graphs as curves.
  void refill(const QVector<Curve>& curves, const KeyOf& keyOf);
  // One step's rates, rank r at index r, at x = `key`.
  void addStep(const std::vector<double>& rates, double key);
  void setVisible(bool visible);

  int count() const { return graphs_.size(); }
  QCPGraph* graph(int rank) const { return graphs_.value(rank, nullptr); }

 private:
  void resize(int count);
  void spaceMarkers();

  QCustomPlot* plot_;
  QString layer_;
  QVector<QCPGraph*> graphs_;
  bool visible_ = true;
};

}  // namespace mrnn::widgets
