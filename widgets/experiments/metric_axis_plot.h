#pragma once

#include <qcustomplot.h>
#include <QPointF>
#include <QString>

#include <string>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"

namespace mrnn::widgets {

// A metric against one axis of the experiment, each configuration a point with error bars of
// ± one standard deviation over its seeds (as Krause et al. Fig. 2 draws sizes against
// validation). The configurations that share the other axes' values form a series (one colour
// each, joined in the axis's order). A numeric axis is drawn to scale (logarithmic for a
// log_range); cell types and other text values sit at evenly spaced labelled ticks. Published
// reference figures for the metric are drawn as crosses. Hovering a point names it.
class MetricAxisPlot : public QCustomPlot {
  Q_OBJECT

 public:
  explicit MetricAxisPlot(QWidget* parent = nullptr);
  ~MetricAxisPlot() override;

  // `metric` is one of engine::experimentMetricNames(); `axis` indexes `axes`.
  void setResults(const std::vector<engine::ExperimentAxis>& axes,
                  const std::vector<engine::ConfigurationResult>& rows, const std::string& metric,
                  int axis);

  const std::vector<QCPGraph*>& series() const { return series_; }
  const std::vector<QCPErrorBars*>& errorBars() const { return errorBars_; }
  // Each seed's figure beside its configuration's mean, a graph per series with several seeds.
  const std::vector<QCPGraph*>& seedPoints() const { return seedPoints_; }
  // The reference figures' crosses; nullptr when no reference names the metric.
  QCPGraph* referenceGraph() const { return reference_; }
  // Configurations plotted (those with the metric measured).
  int pointCount() const { return static_cast<int>(points_.size()); }
  bool isCategorical() const { return categorical_; }
  QString caption() const;
  // The caption as drawn: broken into lines where the plot is narrower than it.
  QString shownCaption() const;

  // "validation bits per symbol", "test perplexity", ...; "validation squared error" for the bits
  // metrics where every one of `rows` trains a real-valued output (engine/config/loss_unit.h).
  static QString metricLabel(const std::string& metric,
                             const std::vector<engine::ConfigurationResult>& rows = {});
  // Whether an axis's values are drawn to scale (numbers) rather than as labelled ticks.
  static bool isNumericAxis(const engine::ExperimentAxis& axis,
                            const std::vector<engine::ConfigurationResult>& rows, int index);

 signals:
  // A configuration under the mouse (its index), -1 when the mouse left it.
  void configurationHovered(qint64 configuration);

 private:
  struct Point {
    double x = 0.0;
    double y = 0.0;
    qint64 configuration = 0;
    QString text;
  };
  void hover(QMouseEvent* event);
  void setLegendShown(bool shown);
  void setCaption(const QString& caption);
  void resizeEvent(QResizeEvent* event) override;

  QCPTextElement* title_ = nullptr;
  QString caption_;
  std::vector<QCPGraph*> series_;
  std::vector<QCPErrorBars*> errorBars_;
  std::vector<QCPGraph*> seedPoints_;
  QCPGraph* reference_ = nullptr;
  std::vector<Point> points_;
  bool categorical_ = false;
  qint64 hovered_ = -1;
};

}  // namespace mrnn::widgets
