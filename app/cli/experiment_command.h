#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn experiment plan|run|status|stop|table <experiment.yaml | project>` (docs/experiments.md),
// and `mrnn experiment trial`, which the queue starts for each trial.
int runExperimentCommand(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
