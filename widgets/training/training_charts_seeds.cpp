// The seed groups' bands of the training charts: a group's mean ± one standard deviation over
// its seeds on the loss (smoothed as its mean is) and validation charts. Beside
// training_charts.cpp, which draws the lines.
#include <qcustomplot.h>

#include "widgets/training/seed_band.h"
#include "widgets/training/training_charts.h"

namespace mrnn::widgets {

void TrainingCharts::createBands(RunGraphs& run) {
  run.lossBand.reset();
  run.validationBand.reset();
  if (!run.curves.isSeedGroup()) return;
  const QColor colour = runColor(run.colorIndex);
  run.lossBand = std::make_unique<SeedBand>(plot(Chart::Loss), colour);
  run.validationBand = std::make_unique<SeedBand>(plot(Chart::Validation), colour);
}

void TrainingCharts::refillBands(RunGraphs& run) {
  if (!run.lossBand || !run.validationBand) return;
  const auto fillBand = [this](SeedBand& band, RunMetric metric, const RunCurves& curves,
                               auto transform) {
    const Curve& mean = curves.curve(metric);
    const Curve& spread = curves.spread(metric);
    QVector<double> keys;
    QVector<double> lower;
    QVector<double> upper;
    for (int i = 0; i < mean.size() && i < spread.size(); ++i) {
      keys.append(keyOf(mean[i]));
      const auto [low, high] =
          transform(mean[i].value - spread[i].value, mean[i].value + spread[i].value);
      lower.append(low);
      upper.append(high);
    }
    band.setData(keys, lower, upper);
  };
  // The loss band is smoothed as the mean line is: the same weight over the same points.
  const double weight =
      EmaSmoother::weightFor(smoothing_, run.curves.curve(RunMetric::TrainLoss).size());
  EmaSmoother low(weight);
  EmaSmoother high(weight);
  fillBand(*run.lossBand, RunMetric::TrainLoss, run.curves, [&](double a, double b) {
    return std::pair<double, double>(lossValue(low.add(a)), lossValue(high.add(b)));
  });
  fillBand(*run.validationBand, validationMetric(), run.curves,
           [](double a, double b) { return std::pair<double, double>(a, b); });
  run.lossBand->setVisible(run.visible);
  run.validationBand->setVisible(run.visible);
}

const SeedBand* TrainingCharts::overlayBand(int overlay, Chart chart) const {
  const RunGraphs* run = runAt(overlay + 1);
  if (!run) return nullptr;
  if (chart == Chart::Loss) return run->lossBand.get();
  if (chart == Chart::Validation) return run->validationBand.get();
  return nullptr;
}

}  // namespace mrnn::widgets
