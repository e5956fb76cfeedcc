#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace mrnn::engine {

// Who holds a run's writer lock, as its lock file says.
struct LockHolder {
  int64_t pid = 0;
  std::string host;
  std::string program;  // "mrnn", "mrnn-workbench"
  std::string since;    // ISO 8601, UTC

  // "process 4711 (mrnn) on node7, since 2026-11-23T10:02:11Z"
  std::string describe() const;
};

// Refused because another process (or another run in this process) writes the run.
class RunBusyError : public std::runtime_error {
 public:
  RunBusyError(const std::string& message, LockHolder holder)
      : std::runtime_error(message), holder_(std::move(holder)) {}
  const LockHolder& holder() const { return holder_; }

 private:
  LockHolder holder_;
};

// A run's one-writer lock: an exclusive flock(2) on checkpoints/run-<id>/writer.lock. The
// kernel drops it when the process ends however it ends (kill -9 included), so a lock never
// outlives its writer, and a "running" run whose lock is free has lost its process. The file
// names the holder for refusals; it stays behind, unlocked, when the run ends.
class RunLock {
 public:
  RunLock() = default;  // holds nothing
  ~RunLock();
  RunLock(RunLock&& other) noexcept;
  RunLock& operator=(RunLock&& other) noexcept;
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  // Takes the lock at `path` (creating the file and its folder), or throws RunBusyError
  // naming `what` ("run 4") and the holder; other failures throw std::runtime_error.
  static RunLock acquire(const std::string& path, const std::string& what);
  // The live holder of the lock at `path`; nullopt when no process holds it (or there is
  // no such file). Reads only, so it works in read-only folders.
  static std::optional<LockHolder> holder(const std::string& path);

  bool held() const { return fd_ >= 0; }
  void release();

 private:
  int fd_ = -1;
};

}  // namespace mrnn::engine
