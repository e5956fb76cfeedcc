#include "engine/data/problem_batcher.h"

#include <sstream>
#include <stdexcept>

namespace mrnn::engine {
namespace {

const char* const kProblemBatcherTag = "problem-batcher";

}  // namespace

ProblemBatcher::ProblemBatcher(const LongRangeProblem& problem, int64_t batch)
    : problem_(problem), batch_(batch) {
  if (batch < 1) throw std::invalid_argument("training.batch_size must be at least 1");
  const int64_t sequences = std::max<int64_t>(1, problem.sequences(ProblemSplit::Train));
  windowsPerEpoch_ = (sequences + batch - 1) / batch;
}

Window ProblemBatcher::window(const LongRangeProblem& problem, ProblemSplit split, int64_t first,
                              int64_t batch) {
  const int64_t steps = problem.windowLength();
  Window w;
  w.steps = steps;
  w.batch = batch;
  w.freshState = true;
  const auto size = static_cast<size_t>(steps * batch);
  w.inputs.resize(size);
  w.targets.resize(size);
  w.lossMask.resize(size);
  if (problem.readsValues()) w.inputValues.resize(size);
  if (problem.realValued()) w.targetValues.resize(size);
  for (int64_t b = 0; b < batch; ++b) {
    const ProblemSequence s = problem.sequence(split, first + b);
    for (int64_t t = 0; t < steps; ++t) {
      const auto at = static_cast<size_t>(t * batch + b);
      const auto k = static_cast<size_t>(t);
      w.inputs[at] = s.inputs[k];
      w.targets[at] = s.targets[k];
      w.lossMask[at] = s.mask[k];
      if (problem.readsValues()) w.inputValues[at] = s.values[k];
      if (problem.realValued()) w.targetValues[at] = s.targetValues[k];
    }
  }
  return w;
}

Window ProblemBatcher::next() {
  if (position_ == windowsPerEpoch_) {
    position_ = 0;
    ++epoch_;
  }
  const int64_t first = (epoch_ * windowsPerEpoch_ + position_) * batch_;
  Window w = window(problem_, ProblemSplit::Train, first, batch_);
  w.epochStart = position_ == 0;
  ++position_;
  return w;
}

double ProblemBatcher::epochProgress() const {
  return static_cast<double>(position_) / static_cast<double>(windowsPerEpoch_);
}

std::string ProblemBatcher::saveState() const {
  std::ostringstream out;
  out << kProblemBatcherTag << " 1 " << batch_ << " " << windowsPerEpoch_ << " " << position_ << " "
      << epoch_;
  return out.str();
}

void ProblemBatcher::restoreState(const std::string& state) {
  std::istringstream in(state);
  std::string tag;
  int version = 0;
  int64_t batch = 0;
  int64_t windows = 0;
  int64_t position = -1;
  int64_t epoch = -1;
  in >> tag >> version >> batch >> windows >> position >> epoch;
  if (!in || tag != kProblemBatcherTag || version != 1 || position < 0 || epoch < 0) {
    throw std::invalid_argument("the checkpoint's place in the problem's data cannot be read");
  }
  if (batch != batch_ || windows != windowsPerEpoch_ || position > windows) {
    throw std::invalid_argument(
        "the problem's data has changed (the checkpoint's place is in batches of " +
        std::to_string(batch) + " and " + std::to_string(windows) +
        " windows an epoch; the problem now gives " + std::to_string(batch_) + " and " +
        std::to_string(windowsPerEpoch_) + ")");
  }
  position_ = position;
  epoch_ = epoch;
}

}  // namespace mrnn::engine
