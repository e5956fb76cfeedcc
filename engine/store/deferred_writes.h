#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mrnn::engine {

class RunStore;
struct MetricPoint;

// A training run's writes to its store, kept in order while another program holds the
// database (a database browser mid-edit, a sqlite3 shell in a transaction): a write that finds
// it locked waits in memory with those after it, and they are tried again, oldest first, at a
// later write, at most once a second; the loop never waits on the lock for more than a moment.
// Any other store error is thrown at once.
class DeferredWrites {
 public:
  using Write = std::function<void(RunStore&)>;
  using Clock = std::chrono::steady_clock;

  // How much may wait: about 100 MB of metric points (a write's weight is its points).
  static constexpr int64_t kMaxWaitingWeight = 1'000'000;
  // How long one try waits for the lock before the write waits in memory instead.
  static constexpr int kTryMilliseconds = 100;

  explicit DeferredWrites(RunStore& store);

  // Writes `write` after those waiting; when the database is locked it waits too. A write with
  // a `kind` (a progress update) replaces a waiting one of that kind: only the newest counts.
  // Throws StoreBusyError when more than kMaxWaitingWeight would wait, naming how long the
  // database has been held.
  // `points`, when given, are the metric points the write appends: waitingMetrics() finds
  // them while it waits.
  void write(Write write, int64_t weight = 1, const char* kind = nullptr,
             std::shared_ptr<const std::vector<MetricPoint>> points = nullptr);
  // Writes what waits, trying until `patience` has passed or `giveUp` says so; true when
  // nothing waits any more.
  bool settle(Clock::duration patience, const std::function<bool()>& giveUp);

  size_t waiting() const { return waiting_.size(); }
  // The metric points of the writes still waiting, oldest first (what a run that cannot wait
  // any longer keeps elsewhere).
  std::vector<MetricPoint> waitingMetrics() const;
  // When the first write still waiting found the database locked.
  Clock::time_point heldSince() const { return heldSince_; }

 private:
  struct Waiting {
    Write write;
    int64_t weight = 1;
    const char* kind = nullptr;
    std::shared_ptr<const std::vector<MetricPoint>> points;
  };
  // Writes waiting writes, oldest first, until one finds the database locked; true when none
  // waits.
  bool drain();

  RunStore& store_;
  std::deque<Waiting> waiting_;
  int64_t waitingWeight_ = 0;
  Clock::time_point heldSince_{};
  Clock::time_point lastTry_{};
};

}  // namespace mrnn::engine
