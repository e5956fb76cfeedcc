#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn train <project.yaml>` and `mrnn resume <project.yaml> [--run ID | --checkpoint PATH]`:
// trains on the engine thread, printing a progress line (epoch, step, loss, bits/symbol,
// symbols/s, ETA); Ctrl-C stops cleanly with a resumable checkpoint.
int runTrain(const CommandLine& args, bool resume, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
