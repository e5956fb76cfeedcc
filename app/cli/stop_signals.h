#pragma once

#include <signal.h>

#include <array>
#include <atomic>

namespace mrnn::app {

// Ctrl-C (SIGINT), `kill` / `timeout` / systemd (SIGTERM) and a closed terminal (SIGHUP) all
// ask the command to stop the same way: a flag it reads between steps (training saves a
// checkpoint; the experiment queue stops its trials). SIGPIPE is ignored, so writing to a
// closed terminal cannot kill the process first. The previous handlers come back when this
// object ends. They nest: an inner one (training inside a command that planned first) keeps
// a request made before it.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // A command a script starts in the background inherits SIGINT ignored (POSIX shells do
  // that); Ctrl-C or kill -INT must still stop it, so main() puts the default back first.
  static void restoreIgnoredInterrupt();

  bool requested() const;
  // The flag itself, for code that polls it (the experiment queue).
  const std::atomic<bool>& flag() const;
  // "Ctrl-C", "SIGTERM" or "SIGHUP": the signal that asked.
  const char* name() const;

 private:
  static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
  struct sigaction previousPipe_ {};
};

}  // namespace mrnn::app
