#include "engine/runtime/stop_token.h"

#include <chrono>

namespace mrnn::engine {

void StopToken::requestResume() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    paused_.store(false);
  }
  wake_.notify_all();
}

void StopToken::waitWhilePaused() const {
  std::unique_lock<std::mutex> lock(mutex_);
  // A stop cannot notify (it may come from a signal handler): the wait polls for it.
  while (!wake_.wait_for(lock, std::chrono::milliseconds(kPausePollMilliseconds),
                         [this] { return !paused_.load() || stopped_.load(); })) {
  }
}

const StopToken& StopToken::never() {
  static const StopToken token;
  return token;
}

}  // namespace mrnn::engine
