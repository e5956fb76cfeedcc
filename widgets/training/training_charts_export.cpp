// What the training charts save: their numbers as CSV and their plots as a figure. Beside
// training_charts.cpp, which draws them.
#include <qcustomplot.h>

#include <vector>

#include "engine/store/text_format.h"
#include "widgets/display_format.h"
#include "widgets/export/figure_export.h"
#include "widgets/training/training_charts.h"

namespace mrnn::widgets {

QByteArray TrainingCharts::toCsv() const {
  struct Column {
    RunMetric metric;
    const char* name;
    double (*convert)(double);
  };
  static const Column bits[] = {
      {RunMetric::TrainLoss, "train_bits_per_symbol", [](double nats) { return natsToBits(nats); }},
      {RunMetric::ValidBits, "valid_bits_per_symbol", [](double v) { return v; }},
      {RunMetric::ValidPerplexity, "valid_perplexity", [](double v) { return v; }},
  };
  // A real-valued output's loss is its squared error (as the charts show it), never bits.
  static const Column squaredError[] = {
      {RunMetric::TrainLoss, "train_squared_error", [](double v) { return v; }},
      {RunMetric::ValidLoss, "valid_squared_error", [](double v) { return v; }},
  };
  static const Column others[] = {
      {RunMetric::LearningRate, "learning_rate", [](double v) { return v; }},
      {RunMetric::GradientNorm, "gradient_norm", [](double v) { return v; }},
      {RunMetric::Throughput, "symbols_per_second", [](double v) { return v; }},
      {RunMetric::Lambda, "hessian_free_lambda", [](double v) { return v; }},
      {RunMetric::CgIterations, "cg_iterations", [](double v) { return v; }},
      {RunMetric::KeptIterate, "cg_iteration_kept", [](double v) { return v; }},
      {RunMetric::Rho, "reduction_ratio", [](double v) { return v; }},
      {RunMetric::ValidErrorRate, "valid_error_rate", [](double v) { return v; }},
  };
  const auto eachColumn = [this](const auto& visit) {
    if (unit_ == Unit::SquaredError) {
      for (const Column& column : squaredError) visit(column);
    } else {
      for (const Column& column : bits) visit(column);
    }
    for (const Column& column : others) visit(column);
  };
  QByteArray out("run,label,metric,step,epoch,seconds,value\n");
  for (int index = 0; index <= overlayCount(); ++index) {
    const RunGraphs* run = runAt(index);
    if (!run->visible || run->curves.isEmpty()) continue;
    const QByteArray prefix =
        QByteArray::number(run->curves.runId()) + ',' +
        QByteArray::fromStdString(engine::csvField(run->curves.label().toStdString())) + ',';
    const auto rows = [&out, &prefix](const QByteArray& metric, const Curve& curve,
                                      double (*convert)(double)) {
      for (const CurvePoint& point : curve) {
        out += prefix + metric + ',' + QByteArray::number(static_cast<qint64>(point.step)) + ',' +
               QByteArray::number(point.epoch, 'g', 8) + ',' +
               QByteArray::number(point.wallSeconds, 'g', 8) + ',' +
               QByteArray::number(convert(point.value), 'g', 10) + '\n';
      }
    };
    eachColumn([&](const Column& column) {
      rows(column.name, run->curves.curve(column.metric), column.convert);
    });
    // A seed group's standard deviation over its runs, per metric, in its mean's units.
    if (run->curves.isSeedGroup()) {
      eachColumn([&](const Column& column) {
        rows(QByteArray(column.name) + "_std", run->curves.spread(column.metric), column.convert);
      });
    }
    const QVector<Curve>& ranks = run->curves.rankThroughput();
    for (int rank = 0; rank < ranks.size(); ++rank) {
      rows("rank" + QByteArray::number(rank) + "_symbols_per_second", ranks[rank],
           [](double v) { return v; });
    }
  }
  return out;
}

void TrainingCharts::saveFigure(const QString& path) {
  hideReadout();
  std::vector<QCustomPlot*> shown;  // the CG chart only where a Hessian-free run is drawn
  for (QCustomPlot* target : plots_) {
    if (!target->isHidden()) shown.push_back(target);
  }
  savePlots(path, this, shown);
}

}  // namespace mrnn::widgets
