#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace mrnn::engine {

// The threads to compute with beside other programs: every processor this process may use,
// less those other programs keep busy (rounded; at least one). Two threads where another
// program spins on one of two cores time-slice with it and train at a fifth of the speed of
// one thread on the free core (docs/performance.md), so training left to choose its threads
// (`training.threads: 0`) follows the machine's load.
int threadsBesideOthers(int processors, double othersBusy);

// Measures how many processors other programs keep busy, from the busy time of this process's
// processors (/proc/stat) less this process's own CPU time (/proc/self/stat), between two
// readings; and says how many threads to use now. No LibTorch: the caller applies the count.
class ThreadGovernor {
 public:
  // Reads the processors this process may run on (its affinity) every `intervalSeconds`.
  explicit ThreadGovernor(double intervalSeconds = 2.0);

  // A reading over `seconds` now (blocks), for the first choice before computing starts.
  int measure(double seconds);
  // Between steps: nullopt until `intervalSeconds` have passed since the last reading, then
  // the threads to use from the load over that interval.
  std::optional<int> poll();

  int processors() const { return static_cast<int>(cpus_.size()); }
  double othersBusy() const { return othersBusy_; }  // processors, at the last reading

 private:
  struct Reading {
    double busyTicks = 0.0;  // the process's processors together
    double ownTicks = 0.0;
    std::chrono::steady_clock::time_point at;
  };
  Reading read() const;
  int decide(const Reading& from, const Reading& to);

  std::vector<int> cpus_;
  double intervalSeconds_;
  Reading last_;
  double othersBusy_ = 0.0;
};

}  // namespace mrnn::engine
