#pragma once

#include <cstdint>
#include <string>

#include "engine/data/long_range_problem.h"
#include "engine/data/stream_batcher.h"
#include "engine/data/window_source.h"

namespace mrnn::engine {

// The training windows of a long-range problem: each window is `batch` fresh sequences of its
// training stream side by side, [W, B] with W the problem's window length, every one read
// from the initial state (Window::freshState). An epoch is data.problem.train sequences; the
// next epoch reads the sequences after them, so no sequence is seen twice, as in Martens &
// Sutskever's training on newly drawn data.
class ProblemBatcher : public WindowSource {
 public:
  // Throws std::invalid_argument for a batch below 1.
  ProblemBatcher(const LongRangeProblem& problem, int64_t batch);

  Window next() override;
  int64_t epoch() const override { return epoch_; }
  double epochProgress() const override;
  int64_t windowsPerEpoch() const override { return windowsPerEpoch_; }
  std::string saveState() const override;
  void restoreState(const std::string& state) override;

  // The window of `batch` sequences of `split` from `first` on (held-out scoring reads them).
  static Window window(const LongRangeProblem& problem, ProblemSplit split, int64_t first,
                       int64_t batch);

 private:
  const LongRangeProblem& problem_;
  int64_t batch_;
  int64_t windowsPerEpoch_;
  int64_t position_ = 0;  // windows read in this epoch
  int64_t epoch_ = 0;
};

}  // namespace mrnn::engine
