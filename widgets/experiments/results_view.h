#pragma once

#include <QByteArray>
#include <QList>
#include <QWidget>

#include <string>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QToolButton;

namespace mrnn::widgets {

class ExportBar;
class MetricAxisPlot;
class ParallelCoordinatesView;
class ResultsTableModel;

// An experiment's results: a sortable table (one row per configuration, mean ± std over
// seeds, references beside the measured figures) beside two figures of a chosen metric: the
// metric against a chosen axis with error bars, and parallel coordinates of every axis and the
// metric. "Show in monitor" overlays the selected configurations' runs in the training
// monitor; the figure in view and the table (CSV, as `mrnn experiment table --format csv`)
// can be saved.
class ResultsView : public QWidget {
  Q_OBJECT

 public:
  explicit ResultsView(QWidget* parent = nullptr);

  // Keeps the selection (by configuration), the sort order, the metric and the axis.
  void setResults(const engine::ExperimentPlan& plan,
                  const std::vector<engine::ConfigurationResult>& rows);
  void clear();

  // One of engine::experimentMetricNames(); an axis index of the plan.
  void setMetric(const std::string& metric);
  std::string metric() const;
  void setAxis(int axis);
  int axis() const;

  // The runs of the selected configurations, in table order.
  QList<qint64> selectedRunIds() const;
  void selectConfigurations(const QList<qint64>& configurations);
  QByteArray csv() const;
  // Writes the figure in view (PNG, SVG or PDF by the suffix); throws std::runtime_error.
  void saveFigure(const QString& path) const;

  ResultsTableModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTableView* table() const { return table_; }
  MetricAxisPlot* plot() const { return plot_; }
  ParallelCoordinatesView* parallel() const { return parallel_; }
  QTabWidget* figures() const { return figures_; }
  QComboBox* metricChooser() const { return metric_; }
  // Two selected configurations compared (Welch's t-test), or a hint.
  QString comparison() const;
  // The experiment file's claims tested on the seeds (rich text), or "" when it has none.
  QString claims() const;
  QComboBox* axisChooser() const { return axis_; }
  QToolButton* showButton() const { return show_; }
  ExportBar* exportBar() const { return export_; }

 signals:
  void showRunsRequested(const QList<qint64>& runIds);

 private:
  void redraw();
  void updateComparison();
  void updateClaims();
  void updateButtons();

  engine::ExperimentPlan plan_;
  std::vector<engine::ConfigurationResult> rows_;
  ResultsTableModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* table_ = nullptr;
  MetricAxisPlot* plot_ = nullptr;
  ParallelCoordinatesView* parallel_ = nullptr;
  QTabWidget* figures_ = nullptr;
  QComboBox* metric_ = nullptr;
  QLabel* comparison_ = nullptr;
  QLabel* claims_ = nullptr;
  QComboBox* axis_ = nullptr;
  QToolButton* show_ = nullptr;
  ExportBar* export_ = nullptr;
};

}  // namespace mrnn::widgets
