#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "engine/devices/torch_threads.h"
#include "engine/runtime/job_context.h"

namespace mrnn::app {

// The threads of a command that computes (eval, score, sample, analyze): `requested`, the
// command's --threads or the project's training.threads, where 0 (the default) follows the
// machine's load as training does, and a change is said on `err`. job() is the context the
// command's engine calls take: each of their reports reads the load again.
class CommandThreads {
 public:
  CommandThreads(int64_t requested, const std::string& activity, std::ostream& err)
      : job_({}, engine::StopToken::never()) {
    job_.followLoad(engine::torchThreads(
        requested, [&err](const std::string& line) { err << "mrnn: " << line << "\n"; },
        {activity, "threads: 0 follows the load"}));
  }
  CommandThreads(const CommandThreads&) = delete;
  CommandThreads& operator=(const CommandThreads&) = delete;

  engine::JobContext* job() { return &job_; }

 private:
  engine::JobContext job_;
};

}  // namespace mrnn::app
