#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace mrnn::engine {

// Requests from the caller's thread to a running training loop, honoured between steps:
// pause blocks the loop until resume or stop; stop ends it with a resumable checkpoint.
class RunControl {
 public:
  void requestPause() { paused_ = true; }
  void requestResume() {
    paused_ = false;
    wake_.notify_all();
  }
  void requestStop() {
    stopped_ = true;
    wake_.notify_all();
  }
  bool stopRequested() const { return stopped_; }
  // Ends the run as stopped (resumable) once it has trained `step` steps: an experiment's
  // successive halving trains a trial to a rung, then continues it from there. 0: no limit.
  void stopAtStep(int64_t step) { stopAtStep_ = step; }
  bool stepLimitReached(int64_t step) const { return stopAtStep_ > 0 && step >= stopAtStep_; }
  bool pauseRequested() const { return paused_; }

  // Called by the loop: blocks while paused (and not stopped).
  void waitWhilePaused() {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [this] { return !paused_ || stopped_; });
  }

 private:
  std::atomic<bool> paused_{false};
  std::atomic<bool> stopped_{false};
  std::atomic<int64_t> stopAtStep_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace mrnn::engine
