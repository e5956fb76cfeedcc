#include "engine/store/deferred_writes.h"

#include <algorithm>
#include <thread>

#include "engine/store/run_store.h"

namespace mrnn::engine {
namespace {

// Waiting writes are tried again at most this often while the database stays locked.
constexpr auto kRetryEvery = std::chrono::seconds(1);

std::string heldFor(DeferredWrites::Clock::duration held) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(held).count();
  if (seconds < 120) return std::to_string(seconds) + " s";
  return std::to_string(seconds / 60) + " minutes";
}

}  // namespace

DeferredWrites::DeferredWrites(RunStore& store) : store_(store) {
  store_.setBusyWait(kTryMilliseconds);
}

void DeferredWrites::write(Write write, int64_t weight, const char* kind,
                           std::shared_ptr<const std::vector<MetricPoint>> points) {
  if (kind != nullptr) {
    const auto same = [kind](const Waiting& w) { return w.kind == kind; };
    for (const auto& w : waiting_) {
      if (same(w)) waitingWeight_ -= w.weight;
    }
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(), same), waiting_.end());
  }
  if (waiting_.empty()) {
    try {
      write(store_);
      return;
    } catch (const StoreBusyError&) {
      heldSince_ = lastTry_ = Clock::now();
    }
  }
  waiting_.push_back({std::move(write), weight, kind, std::move(points)});
  waitingWeight_ += weight;
  if (waiting_.size() > 1 && Clock::now() - lastTry_ >= kRetryEvery && drain()) return;
  if (waitingWeight_ > kMaxWaitingWeight) {
    throw StoreBusyError("run database '" + store_.path() + "' has been locked by another " +
                         "program for " + heldFor(Clock::now() - heldSince_) +
                         ", and the run's records waiting in memory reached their limit");
  }
}

bool DeferredWrites::drain() {
  lastTry_ = Clock::now();
  while (!waiting_.empty()) {
    try {
      waiting_.front().write(store_);
    } catch (const StoreBusyError&) {
      return false;
    } catch (...) {
      // Not the lock: this write cannot be made; those after it may still be.
      waitingWeight_ -= waiting_.front().weight;
      waiting_.pop_front();
      throw;
    }
    waitingWeight_ -= waiting_.front().weight;
    waiting_.pop_front();
  }
  return true;
}

std::vector<MetricPoint> DeferredWrites::waitingMetrics() const {
  std::vector<MetricPoint> points;
  for (const auto& w : waiting_) {
    if (w.points) points.insert(points.end(), w.points->begin(), w.points->end());
  }
  return points;
}

bool DeferredWrites::settle(Clock::duration patience, const std::function<bool()>& giveUp) {
  const auto deadline = Clock::now() + patience;
  while (!drain()) {
    if (Clock::now() >= deadline || (giveUp && giveUp())) return false;
    // A lock refused at once (SQLITE_LOCKED) returns without the busy wait.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace mrnn::engine
