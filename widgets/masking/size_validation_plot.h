#pragma once

#include <qcustomplot.h>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <vector>

#include "engine/store/run_store.h"

namespace mrnn::widgets {

// Krause et al. Fig. 2: each run's best validation loss (bits per symbol) against its
// parameter count on a log axis, one colour and marker per model type, the runs of a type
// joined in order of size so each architecture's scaling reads as a line. Hovering a point
// shows its run (tooltip and runHovered).
class SizeValidationPlot : public QCustomPlot {
  Q_OBJECT

 public:
  explicit SizeValidationPlot(QWidget* parent = nullptr);

  // Runs with a best validation loss (others are skipped).
  void setRuns(const std::vector<engine::RunRecord>& runs);
  const std::vector<engine::RunRecord>& runs() const { return runs_; }
  // Model types in graph order (sorted by name, so colours stay put across refreshes).
  QStringList modelTypes() const { return types_; }
  QCPGraph* graphOf(const QString& modelType) const;
  // The run whose marker is within a few pixels of `pixel` (the nearest), as an index into
  // runs(); -1 when none.
  int runAt(const QPointF& pixel) const;
  // The hover text of a run: id, name, model type, parameters, best valid, status.
  static QString describe(const engine::RunRecord& run);

 signals:
  // The run under the mouse (index into runs()), -1 when the mouse left it.
  void runHovered(int index);

 private:
  void hover(QMouseEvent* event);
  void fitRanges();

  std::vector<engine::RunRecord> runs_;
  QStringList types_;
  std::vector<QCPGraph*> graphs_;
  int hovered_ = -1;
};

}  // namespace mrnn::widgets
