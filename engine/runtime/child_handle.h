#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace mrnn::engine {

// A child process started and left running: the experiment queue's trials. Its stdout and
// stderr go to a log file (appended, so a resumed trial's log keeps its history). The
// kernel sends it SIGTERM if the process that started it dies (kill -9 included), so a
// trial never outlives its queue unnoticed; `mrnn` stops with a checkpoint on SIGTERM.
class ChildHandle {
 public:
  ChildHandle() = default;
  // Starts argv[0] (a path, or looked up through PATH) with the inherited environment plus
  // `environment`'s "NAME=value" entries. An empty `logPath`: the child writes to this
  // process's stdout and stderr. Throws std::runtime_error naming the program or log.
  static ChildHandle start(const std::vector<std::string>& argv, const std::string& logPath,
                           const std::vector<std::string>& environment = {});
  ~ChildHandle();  // a still-running child is left running (and reaped by its exit code later)
  ChildHandle(ChildHandle&& other) noexcept;
  ChildHandle& operator=(ChildHandle&& other) noexcept;
  ChildHandle(const ChildHandle&) = delete;
  ChildHandle& operator=(const ChildHandle&) = delete;

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0 && !exitCode_; }
  // Without blocking: the exit code once it has ended (128 + N when signal N ended it).
  std::optional<int> poll();
  // Blocks until it ends.
  int wait();
  void signal(int signalNumber) const;

 private:
  pid_t pid_ = -1;
  std::optional<int> exitCode_;
};

}  // namespace mrnn::engine
