#pragma once

#include <QString>
#include <QVector>
#include <array>
#include <cstdint>
#include <string>

#include "widgets/training/training_event_metatypes.h"

namespace mrnn::engine {
class RunStore;
}

namespace mrnn::widgets {

// One point of a training curve with every x the monitor can plot against.
struct CurvePoint {
  double step = 0.0;
  double epoch = 0.0;
  double wallSeconds = 0.0;
  double value = 0.0;
  double symbols = 0.0;  // training symbols read by then: runs of any update rule line up
};
using Curve = QVector<CurvePoint>;

// The curves the monitor plots, in the units the engine reports them.
enum class RunMetric {
  TrainLoss,        // nats per symbol, each step
  ValidBits,        // bits per symbol, each validation
  ValidPerplexity,  // per symbol (per word at word level)
  LearningRate,
  GradientNorm,  // before clipping
  Throughput,    // symbols per second
  // Hessian-free steps (empty for first-order runs): λ after the step, CG iterations run and
  // the one kept by backtracking, the reduction ratio ρ.
  Lambda,
  CgIterations,
  KeptIterate,
  Rho,
  // The held-out loss as the trainer gives it: a real-valued output's mean squared error,
  // which bits and perplexity do not describe.
  ValidLoss,
  // A long-range problem's criterion: the share of held-out sequences wrong, 0 to 1 (empty
  // for corpora).
  ValidErrorRate,
};
constexpr int kRunMetricCount = 12;

// A run's curves: filled live from the engine's events, or read back from the run store
// (the metric series the trainer records: train/loss, valid/bpc, ...).
class RunCurves {
 public:
  RunCurves() = default;
  RunCurves(qint64 runId, const QString& label) : runId_(runId), label_(label) {}

  qint64 runId() const { return runId_; }
  const QString& label() const { return label_; }
  void setLabel(const QString& label) { label_ = label; }

  const Curve& curve(RunMetric metric) const { return curves_[static_cast<size_t>(metric)]; }
  // A run trained on several processes: each rank's own symbols per second (its wait for the
  // others excluded), rank r at index r; empty for one process.
  const QVector<Curve>& rankThroughput() const { return ranks_; }
  bool isEmpty() const;
  void clear();

  void addStep(const engine::StepEvent& event);
  // Validation events carry no wall time: the last step's is used (validation follows it).
  void addValidation(const engine::ValidationEvent& event);
  // Puts `history`'s points before this run's own (a resumed run's curves so far); points
  // at or after this run's first step are left out.
  void prependHistory(const RunCurves& history);

  // The store's name for a metric ("train/loss", "valid/bpc", ...), and for rank r's
  // throughput ("rank1/symbols_per_s").
  static const char* storeName(RunMetric metric);
  static std::string rankStoreName(int rank);
  // Reads a run's series; throws engine::StoreError. A run from before the store kept the
  // symbols read gets them from its settings: steps x the streams and window of a step.
  static RunCurves fromStore(const engine::RunStore& store, qint64 runId, const QString& label);
  // Whether the run took Hessian-free steps.
  bool hessianFree() const { return !curve(RunMetric::CgIterations).isEmpty(); }

  // The mean of runs of one configuration over their seeds (seed_group_curves.h): the ids of
  // its runs, and per metric the standard deviation over them at each of its points.
  bool isSeedGroup() const { return members_.size() > 1; }
  const QVector<qint64>& members() const { return members_; }
  const Curve& spread(RunMetric metric) const { return spreads_[static_cast<size_t>(metric)]; }
  void setGroupCurve(RunMetric metric, const Curve& mean, const Curve& spread) {
    curves_[static_cast<size_t>(metric)] = mean;
    spreads_[static_cast<size_t>(metric)] = spread;
  }
  void setMembers(const QVector<qint64>& members) { members_ = members; }

 private:
  void append(RunMetric metric, const CurvePoint& point) {
    curves_[static_cast<size_t>(metric)].append(point);
  }

  qint64 runId_ = 0;
  QString label_;
  std::array<Curve, kRunMetricCount> curves_;
  std::array<Curve, kRunMetricCount> spreads_;  // a seed group's only
  QVector<qint64> members_;
  QVector<Curve> ranks_;
  double lastWallSeconds_ = 0.0;
  double lastSymbols_ = 0.0;
};

}  // namespace mrnn::widgets
