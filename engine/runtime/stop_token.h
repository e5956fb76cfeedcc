#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace mrnn::engine {

// The one way to ask running work to stop, or to hold it paused. Whoever starts the work
// owns the token (a command's signal handlers, a GUI job, a training run, an experiment
// queue) and lends it by reference; the work asks stopRequested() at its safe points and
// waits in waitWhilePaused() between steps. requestStop() only sets a lock-free flag, so a
// signal handler may call it; a paused waiter sees it within kPausePollMilliseconds.
class StopToken {
 public:
  static constexpr int kPausePollMilliseconds = 50;

  StopToken() = default;
  StopToken(const StopToken&) = delete;
  StopToken& operator=(const StopToken&) = delete;

  void requestStop() noexcept { stopped_.store(true); }
  bool stopRequested() const noexcept { return stopped_.load(); }
  void requestPause() noexcept { paused_.store(true); }
  void requestResume();
  bool pauseRequested() const noexcept { return paused_.load(); }
  // Blocks while paused and not stopped.
  void waitWhilePaused() const;

  // A token no one stops, for work no one may interrupt (a phase inside a step).
  static const StopToken& never();

 private:
  static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler sets the flag");
  std::atomic<bool> stopped_{false};
  std::atomic<bool> paused_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable wake_;
};

}  // namespace mrnn::engine
