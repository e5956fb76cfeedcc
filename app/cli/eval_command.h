#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn eval <project.yaml> [--run ID | --checkpoint PATH] [--split valid|test]
//  [--dynamic] [--mc N] [--tune-temperature] [--max-symbols N] [--json]`: static evaluation,
// and, as asked (or as the project's evaluation section sets), dynamic evaluation,
// Monte-Carlo dropout and a validation-tuned softmax temperature.
int runEval(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
