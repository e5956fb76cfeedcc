#pragma once

#include <QColor>
#include <QVector>

class QCPGraph;
class QCustomPlot;

namespace mrnn::widgets {

// The ± one standard deviation band of a seed group's curve on one chart: two graphs, the
// lower filled up to the upper in the run's colour, faint, drawn under the mean line and kept
// out of the legend. Owned by the chart's run; removes its graphs when it goes.
class SeedBand {
 public:
  SeedBand(QCustomPlot* plot, const QColor& colour);
  ~SeedBand();
  SeedBand(const SeedBand&) = delete;
  SeedBand& operator=(const SeedBand&) = delete;

  // The band from lower[i] to upper[i] at keys[i].
  void setData(const QVector<double>& keys, const QVector<double>& lower,
               const QVector<double>& upper);
  void setColour(const QColor& colour);
  void setVisible(bool visible);
  QCPGraph* lower() const { return lower_; }
  QCPGraph* upper() const { return upper_; }

 private:
  QCPGraph* lower_ = nullptr;
  QCPGraph* upper_ = nullptr;
};

}  // namespace mrnn::widgets
