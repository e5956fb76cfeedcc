#pragma once

#include <string>
#include <vector>

namespace mrnn::engine {

// How a child process ended and what it used.
struct ChildOutcome {
  int exitCode = -1;  // the exit status; 128 + N when killed by signal N
  std::string out;    // everything it wrote to stdout
  std::string err;    // ... and to stderr
  // Its peak resident memory (wait4's ru_maxrss). The kernel counts the forked copy of the
  // caller too, so this is never below the caller's resident size at the fork: the child's
  // own peak whenever that is larger (as every benchmark measurement's is).
  long peakResidentKb = 0;
};

// Runs argv (argv[0] looked up through PATH; the environment inherited, plus `environment`'s
// "NAME=value" entries) to its end, collecting both output streams. Throws std::runtime_error
// naming the program when it cannot be started. Benchmarks run each measurement this way so that
// the peak memory is that measurement's alone. The child gets SIGTERM if the thread that started
// it ends first (its process's death included), so none is left running on its own.
ChildOutcome runChildProcess(const std::vector<std::string>& argv,
                             const std::vector<std::string>& environment = {});

}  // namespace mrnn::engine
