#pragma once

#include <signal.h>

#include <array>
#include <memory>

#include "engine/runtime/stop_token.h"

namespace mrnn::app {

// Ctrl-C (SIGINT), `kill` / `timeout` / systemd (SIGTERM) and a closed terminal (SIGHUP) all
// ask the command to stop the same way: they stop one engine::StopToken, which the command
// lends to its work (training saves a checkpoint; the experiment queue stops its trials). SIGPIPE
// is ignored, so writing to a closed terminal cannot kill the process first. The previous handlers
// come back when this object ends. They nest: an inner one (training inside a command that planned
// first) keeps a request made before it.
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
  // The token the signals stop, for the command's work to take.
  const engine::StopToken& token() const;
  // "Ctrl-C", "SIGTERM" or "SIGHUP": the signal that asked.
  const char* name() const;

 private:
  static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
  struct sigaction previousPipe_ {};
  std::unique_ptr<engine::StopToken> own_;  // the outermost one's: a fresh token per command
};

}  // namespace mrnn::app
