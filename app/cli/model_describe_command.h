#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn model describe <project.yaml> [--vocab N]`: the layer table with parameter counts.
// Returns the process exit code; messages go to `out` and `err`.
int runModelDescribe(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
