#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "engine/runtime/thread_governor.h"

namespace mrnn::engine {

// How a change of LoadFollowingThreads is worded: "other programs keep 1.0 of 2 processors
// busy: <activity> on 1 thread (<rule>)".
struct ThreadsWording {
  std::string activity = "computing";                // "training", "evaluating"
  std::string rule = "threads: 0 follows the load";  // the setting that asked for it
};

// The threads of a computation: a fixed count, or, when it is left to choose (0), every
// processor this process may use less those other programs keep busy, read again between
// units of work (ThreadGovernor). Training, evaluation, scoring, sampling and the analyses
// all take their threads from here. No LibTorch: `apply` sets the count where the work runs
// (torch::set_num_threads), and `note` hears each change in words.
class LoadFollowingThreads {
 public:
  using Apply = std::function<void(int threads)>;
  using Note = std::function<void(const std::string& line)>;

  // requested > 0: that many, capped at the processors (said through `note`); 0 or below:
  // follow the load, starting from a reading of `firstReadingSeconds`.
  LoadFollowingThreads(int64_t requested, Apply apply, Note note = {}, ThreadsWording wording = {},
                       double firstReadingSeconds = 0.1, double intervalSeconds = 2.0);
  LoadFollowingThreads(const LoadFollowingThreads&) = delete;
  LoadFollowingThreads& operator=(const LoadFollowingThreads&) = delete;

  // Between units of work: a reading at most once an interval, and a changed count applied.
  // Cheap otherwise (a clock read). Safe from any thread; a poll that finds another under
  // way returns at once.
  void poll();

  int threads() const { return threads_; }
  bool following() const { return governor_ != nullptr; }

 private:
  void change(int threads);

  Apply apply_;
  Note note_;
  ThreadsWording wording_;
  std::unique_ptr<ThreadGovernor> governor_;  // null for a fixed count
  int threads_ = 1;
  std::mutex polling_;
};

}  // namespace mrnn::engine
