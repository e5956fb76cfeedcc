#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn sample <project.yaml> [--run ID | --checkpoint PATH] [--prime TEXT] [--length N]
//  [--temperature T] [--top-k K] [--top-p P] [--greedy] [--beam N] [--stop 'S1|S2']
//  [--completions N] [--seed S] [--clamp LAYER:UNIT:VALUE[,...]] [--alternatives N]
//  [--threads N] [--json]`: generates text from a trained model. Plain mode streams each
// completion to `out` symbol by symbol; --json writes every completion with its symbols'
// probabilities and alternatives. Returns 2 for usage errors, 1 for a prime the model
// cannot read.
int runSampleCommand(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
