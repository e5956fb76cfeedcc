#pragma once

#include <QColor>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"

class QPainter;

namespace mrnn::widgets {

// Hyperparameters against the metric, as TensorBoard's HParams and Weights & Biases draw
// them: one vertical axis per experiment axis and a last one for the metric, and one polyline
// per configuration through its values, coloured by its metric (dark is low, that is good;
// the best are drawn last, on top). A numeric axis is to scale (logarithmic for a log_range),
// a text axis (cell types) has its values evenly spaced. Hovering a line picks it out.
class ParallelCoordinatesView : public QWidget {
  Q_OBJECT

 public:
  explicit ParallelCoordinatesView(QWidget* parent = nullptr);

  // Configurations without the metric measured are left out (and counted in the caption).
  void setResults(const std::vector<engine::ExperimentAxis>& axes,
                  const std::vector<engine::ConfigurationResult>& rows, const std::string& metric);

  int lineCount() const { return static_cast<int>(lines_.size()); }
  int axisCount() const { return static_cast<int>(axes_.size()); }
  // A line's configuration and its colour (tests, figures).
  qint64 lineConfiguration(int line) const {
    return lines_[static_cast<size_t>(line)].configuration;
  }
  QColor lineColour(int line) const;
  QString caption() const { return caption_; }
  // The line under `pixel` (within a few pixels), -1 when none.
  int lineAt(const QPointF& pixel) const;

  // Draws the figure into `size` (the widget's paintEvent, and saved figures, vector or not).
  void paint(QPainter& painter, const QSize& size) const;

  QSize sizeHint() const override { return {560, 300}; }
  QSize minimumSizeHint() const override { return {320, 200}; }

 signals:
  void configurationHovered(qint64 configuration);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  struct Axis {
    QString name;
    QString key;
    bool categorical = false;
    bool log = false;
    QStringList categories;  // the values, as settingText gives them
    QStringList labels;      // what each category is called (an axis's `names`)
    double low = 0.0;
    double high = 1.0;
    std::vector<double> ticks;  // numeric axes: the values to label
  };
  struct Line {
    std::vector<double> positions;  // 0 (bottom) .. 1 (top), one per axis
    double metric = 0.0;
    qint64 configuration = 0;
    QString text;
  };
  QRectF plotArea(const QSize& size) const;
  QPointF pointOf(const Line& line, size_t axis, const QRectF& area) const;
  double position(const Axis& axis, double value) const;
  QColor colourOf(double metric) const;

  std::vector<Axis> axes_;
  std::vector<Line> lines_;  // worst metric first, so the best are drawn on top
  double metricLow_ = 0.0;
  double metricHigh_ = 1.0;
  QString metricName_;
  QString caption_;
  int hovered_ = -1;
};

}  // namespace mrnn::widgets
