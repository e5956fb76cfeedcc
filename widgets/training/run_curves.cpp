#include "widgets/training/run_curves.h"

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
  const auto at = [&event](double value) {
    return CurvePoint{static_cast<double>(event.step), event.epoch, event.wallSeconds, value};
  };
  append(RunMetric::TrainLoss, at(event.loss));
  append(RunMetric::LearningRate, at(event.learningRate));
  append(RunMetric::GradientNorm, at(event.gradientNorm));
  append(RunMetric::Throughput, at(event.symbolsPerSecond));
  if (ranks_.size() < static_cast<int>(event.rankSymbolsPerSecond.size())) {
    ranks_.resize(static_cast<int>(event.rankSymbolsPerSecond.size()));
  }
  for (size_t r = 0; r < event.rankSymbolsPerSecond.size(); ++r) {
    ranks_[static_cast<int>(r)].append(at(event.rankSymbolsPerSecond[r]));
  }
  lastWallSeconds_ = event.wallSeconds;
}

void RunCurves::addValidation(const engine::ValidationEvent& event) {
  const auto at = [&](double value) {
    return CurvePoint{static_cast<double>(event.step), event.epoch, lastWallSeconds_, value};
  };
  append(RunMetric::ValidBits, at(event.figures.bitsPerSymbol));
  append(RunMetric::ValidPerplexity, at(event.figures.perplexity));
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
    if (!loss.isEmpty()) lastWallSeconds_ = loss.last().wallSeconds;
  }
}

const char* RunCurves::storeName(RunMetric metric) {
  switch (metric) {
    case RunMetric::TrainLoss:
      return "train/loss";
    case RunMetric::ValidBits:
      return "valid/bpc";
    case RunMetric::ValidPerplexity:
      return "valid/ppl";
    case RunMetric::LearningRate:
      return "lr";
    case RunMetric::GradientNorm:
      return "grad_norm";
    case RunMetric::Throughput:
      return "symbols_per_s";
  }
  return "";
}

std::string RunCurves::rankStoreName(int rank) {
  return "rank" + std::to_string(rank) + "/symbols_per_s";
}

RunCurves RunCurves::fromStore(const engine::RunStore& store, qint64 runId, const QString& label) {
  RunCurves curves(runId, label);
  for (int m = 0; m < kRunMetricCount; ++m) {
    const auto metric = static_cast<RunMetric>(m);
    for (const engine::MetricPoint& point : store.metrics(runId, storeName(metric))) {
      curves.append(metric, CurvePoint{static_cast<double>(point.step), point.epoch,
                                       point.wallSeconds, point.value});
    }
  }
  // rank0/symbols_per_s, rank1/..., as many as the run had ranks.
  for (int rank = 0;; ++rank) {
    const auto points = store.metrics(runId, rankStoreName(rank));
    if (points.empty()) break;
    Curve curve;
    curve.reserve(static_cast<int>(points.size()));
    for (const engine::MetricPoint& point : points) {
      curve.append(
          CurvePoint{static_cast<double>(point.step), point.epoch, point.wallSeconds, point.value});
    }
    curves.ranks_.append(curve);
  }
  const Curve& loss = curves.curve(RunMetric::TrainLoss);
  if (!loss.isEmpty()) curves.lastWallSeconds_ = loss.last().wallSeconds;
  return curves;
}

}  // namespace mrnn::widgets
