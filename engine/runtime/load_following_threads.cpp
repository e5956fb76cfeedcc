#include "engine/runtime/load_following_threads.h"

#include <cstdio>
#include <utility>

#include "engine/runtime/machine_resources.h"

namespace mrnn::engine {

LoadFollowingThreads::LoadFollowingThreads(int64_t requested, Apply apply, Note note,
                                           ThreadsWording wording, double firstReadingSeconds,
                                           double intervalSeconds)
    : apply_(std::move(apply)), note_(std::move(note)), wording_(std::move(wording)) {
  std::string capped;
  threads_ = chooseThreadCount(requested, &capped);
  if (!capped.empty() && note_) note_(capped);
  if (apply_) apply_(threads_);
  if (requested > 0 || threads_ <= 1) return;
  governor_ = std::make_unique<ThreadGovernor>(intervalSeconds);
  change(governor_->measure(firstReadingSeconds));
}

void LoadFollowingThreads::poll() {
  if (!governor_) return;
  std::unique_lock<std::mutex> lock(polling_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  if (const auto threads = governor_->poll()) change(*threads);
}

void LoadFollowingThreads::change(int threads) {
  if (threads == threads_) return;
  const int processors = governor_->processors();
  if (note_) {
    char busy[32];
    std::snprintf(busy, sizeof busy, "%.1f", governor_->othersBusy());
    note_(threads < processors
              ? std::string("other programs keep ") + busy + " of " + std::to_string(processors) +
                    " processors busy: " + wording_.activity + " on " + std::to_string(threads) +
                    (threads == 1 ? " thread" : " threads") + " (" + wording_.rule + ")"
              : "the processors are free again: " + wording_.activity + " on " +
                    std::to_string(threads) + " threads");
  }
  threads_ = threads;
  if (apply_) apply_(threads_);
}

}  // namespace mrnn::engine
