#pragma once

#include <optional>
#include <string>

#include "engine/store/run_lock.h"

namespace mrnn::engine {

// Controls an experiment's running queue from another process (`mrnn experiment stop`, the
// Experiments panel), through the holder its queue.lock names. A queue started by the
// workbench leads its own process group with its trials, so pausing freezes all of them.
class QueueControl {
 public:
  QueueControl(std::string projectFolder, std::string experiment);

  // The queue process, when one runs.
  std::optional<LockHolder> holder() const;
  // Whether the queue runs on this machine (only then can it be signalled).
  bool local(const LockHolder& holder) const;

  // Each returns false with `problem` set when there is no queue or it cannot be signalled.
  // stop(): SIGTERM; the trials save checkpoints and the queue exits (run it again to go on).
  bool stop(std::string* problem) const;
  // pause(): SIGSTOP to the queue's process group (its trials keep their memory, use no CPU);
  // resume(): SIGCONT.
  bool pause(std::string* problem) const;
  bool resume(std::string* problem) const;
  // Whether the queue's process is stopped by pause() (Linux: its /proc state is 'T').
  bool paused() const;

 private:
  bool signal(int signalNumber, bool group, std::string* problem) const;

  std::string folder_;
  std::string experiment_;
};

}  // namespace mrnn::engine
