#pragma once

#include <sys/types.h>

namespace mrnn::engine {

// Keeps one processor busy while it lives, as another program on a researcher's desktop
// does: a forked child pinned to processor `core` that spins until this object ends it.
// The benchmark's contention mode measures training beside it. No LibTorch.
class BusyCore {
 public:
  // Throws std::runtime_error when the child cannot be started.
  explicit BusyCore(int core = 0);
  ~BusyCore();
  BusyCore(const BusyCore&) = delete;
  BusyCore& operator=(const BusyCore&) = delete;

  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

}  // namespace mrnn::engine
