#include "widgets/training/run_curves.h"

#include <functional>
#include <iterator>
#include <map>

#include "engine/config/project_file.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_store.h"

namespace mrnn::widgets {

bool RunCurves::isEmpty() const {
  for (const Curve& curve : curves_) {
    if (!curve.isEmpty()) return false;
  }
  return true;
}

void RunCurves::clear() {
  for (Curve& curve : curves_) curve.clear();
  ranks_.clear();
  lastWallSeconds_ = 0.0;
}

void RunCurves::addStep(const engine::StepEvent& event) {
  const auto symbols = static_cast<double>(event.symbols);
  const auto at = [&event, symbols](double value) {
    return CurvePoint{static_cast<double>(event.step), event.epoch, event.wallSeconds, value,
                      symbols};
  };
  append(RunMetric::TrainLoss, at(event.loss));
  if (event.update.empty()) append(RunMetric::LearningRate, at(event.learningRate));
  for (const auto& figure : event.update) {
    for (const RunMetric metric :
         {RunMetric::Lambda, RunMetric::CgIterations, RunMetric::KeptIterate, RunMetric::Rho}) {
      if (figure.name == storeName(metric)) append(metric, at(figure.value));
    }
  }
  append(RunMetric::GradientNorm, at(event.gradientNorm));
  append(RunMetric::Throughput, at(event.symbolsPerSecond));
  if (ranks_.size() < static_cast<int>(event.rankSymbolsPerSecond.size())) {
    ranks_.resize(static_cast<int>(event.rankSymbolsPerSecond.size()));
  }
  for (size_t r = 0; r < event.rankSymbolsPerSecond.size(); ++r) {
    ranks_[static_cast<int>(r)].append(at(event.rankSymbolsPerSecond[r]));
  }
  lastWallSeconds_ = event.wallSeconds;
  lastSymbols_ = symbols;
}

void RunCurves::addValidation(const engine::ValidationEvent& event) {
  const auto at = [&](double value) {
    return CurvePoint{static_cast<double>(event.step), event.epoch, lastWallSeconds_, value,
                      lastSymbols_};
  };
  append(RunMetric::ValidBits, at(event.figures.bitsPerSymbol));
  append(RunMetric::ValidPerplexity, at(event.figures.perplexity));
  append(RunMetric::ValidLoss, at(event.figures.nats));
  if (event.figures.errorRate >= 0) append(RunMetric::ValidErrorRate, at(event.figures.errorRate));
}

void RunCurves::prependHistory(const RunCurves& history) {
  // The first step this run reported; history beyond it was overtaken by the resume.
  double firstOwnStep = -1.0;
  for (const Curve& curve : curves_) {
    if (!curve.isEmpty() && (firstOwnStep < 0 || curve.first().step < firstOwnStep)) {
      firstOwnStep = curve.first().step;
    }
  }
  const auto merge = [firstOwnStep](const Curve& before, Curve& own) {
    Curve merged;
    for (const CurvePoint& point : before) {
      if (firstOwnStep < 0 || point.step < firstOwnStep) merged.append(point);
    }
    merged += own;
    own = merged;
  };
  for (int m = 0; m < kRunMetricCount; ++m) {
    merge(history.curves_[static_cast<size_t>(m)], curves_[static_cast<size_t>(m)]);
  }
  // The history may have had another rank count (a checkpoint resumes on any count).
  if (ranks_.size() < history.ranks_.size()) ranks_.resize(history.ranks_.size());
  for (int r = 0; r < history.ranks_.size(); ++r) merge(history.ranks_[r], ranks_[r]);
  if (lastWallSeconds_ == 0.0) {
    const Curve& loss = curve(RunMetric::TrainLoss);
    if (!loss.isEmpty()) {
      lastWallSeconds_ = loss.last().wallSeconds;
      lastSymbols_ = loss.last().symbols;
    }
  }
}

const char* RunCurves::storeName(RunMetric metric) {
  namespace name = engine::metric;
  switch (metric) {
    case RunMetric::TrainLoss:
      return name::kTrainLoss;
    case RunMetric::ValidBits:
      return name::kValidBits;
    case RunMetric::ValidPerplexity:
      return name::kValidPerplexity;
    case RunMetric::ValidLoss:
      return name::kValidLoss;
    case RunMetric::LearningRate:
      return name::kLearningRate;
    case RunMetric::GradientNorm:
      return name::kGradientNorm;
    case RunMetric::Throughput:
      return name::kSymbolsPerSecond;
    case RunMetric::Lambda:
      return name::kLambda;
    case RunMetric::CgIterations:
      return name::kCgIterations;
    case RunMetric::KeptIterate:
      return name::kBacktrackedIterate;
    case RunMetric::Rho:
      return name::kRho;
    case RunMetric::ValidErrorRate:
      return name::kValidErrorRate;
  }
  return "";
}

std::string RunCurves::rankStoreName(int rank) {
  return engine::metric::rankSymbolsPerSecond(rank);
}

namespace {

// The symbols a run had read at each step: its own record, or, for a run from before the
// store kept it, its steps times the symbols a step reads by its settings.
std::function<double(int64_t)> symbolsByStep(const engine::RunStore& store, qint64 runId) {
  std::map<int64_t, double> recorded;
  for (const engine::MetricPoint& point : store.metrics(runId, engine::metric::kSymbols)) {
    recorded[point.step] = point.value;
  }
  if (!recorded.empty()) {
    return [recorded](int64_t step) {
      auto at = recorded.upper_bound(step);  // the first step after
      if (at == recorded.begin()) return 0.0;
      return std::prev(at)->second;
    };
  }
  double perStep = 0.0;
  try {
    if (const auto run = store.run(runId)) {
      const engine::TrainingConfig training = engine::parseProject(run->configYaml).training;
      const int64_t windows = training.optimizer.kind == engine::OptimizerKind::HessianFree
                                  ? training.optimizer.hessianFree.gradientWindows
                                  : 1;
      perStep = static_cast<double>(training.batchSize * training.bptt * windows);
    }
  } catch (const std::exception&) {
    perStep = 0.0;  // settings that no longer read: no symbols axis for this run
  }
  return [perStep](int64_t step) { return perStep * static_cast<double>(step); };
}

}  // namespace

RunCurves RunCurves::fromStore(const engine::RunStore& store, qint64 runId, const QString& label) {
  RunCurves curves(runId, label);
  const auto symbols = symbolsByStep(store, runId);
  const auto at = [&symbols](const engine::MetricPoint& point) {
    return CurvePoint{static_cast<double>(point.step), point.epoch, point.wallSeconds, point.value,
                      symbols(point.step)};
  };
  for (int m = 0; m < kRunMetricCount; ++m) {
    const auto metric = static_cast<RunMetric>(m);
    for (const engine::MetricPoint& point : store.metrics(runId, storeName(metric))) {
      curves.append(metric, at(point));
    }
  }
  // rank0/symbols_per_s, rank1/..., as many as the run had ranks.
  for (int rank = 0;; ++rank) {
    const auto points = store.metrics(runId, rankStoreName(rank));
    if (points.empty()) break;
    Curve curve;
    curve.reserve(static_cast<int>(points.size()));
    for (const engine::MetricPoint& point : points) curve.append(at(point));
    curves.ranks_.append(curve);
  }
  const Curve& loss = curves.curve(RunMetric::TrainLoss);
  if (!loss.isEmpty()) {
    curves.lastWallSeconds_ = loss.last().wallSeconds;
    curves.lastSymbols_ = loss.last().symbols;
  }
  return curves;
}

}  // namespace mrnn::widgets
