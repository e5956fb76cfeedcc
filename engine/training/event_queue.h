#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

namespace mrnn::engine {

// A thread-safe FIFO of value-type events: the engine thread pushes, subscribers (the GUI's
// adapter, the CLI's printer) pop. Unbounded: events are small and consumers drain them.
template <typename Event>
class EventQueue {
 public:
  void push(Event event) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      events_.push_back(std::move(event));
    }
    ready_.notify_one();
  }

  // Waits up to `timeout` for an event.
  std::optional<Event> pop(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!ready_.wait_for(lock, timeout, [this] { return !events_.empty(); })) return std::nullopt;
    Event event = std::move(events_.front());
    events_.pop_front();
    return event;
  }

  // Everything queued now, without waiting.
  std::vector<Event> drain() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Event> out(std::make_move_iterator(events_.begin()),
                           std::make_move_iterator(events_.end()));
    events_.clear();
    return out;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Event> events_;
};

}  // namespace mrnn::engine
