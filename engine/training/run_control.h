#pragma once

#include <atomic>
#include <condition_variable>
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
  bool pauseRequested() const { return paused_; }

  // Called by the loop: blocks while paused (and not stopped).
  void waitWhilePaused() {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [this] { return !paused_ || stopped_; });
  }

 private:
  std::atomic<bool> paused_{false};
  std::atomic<bool> stopped_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace mrnn::engine
