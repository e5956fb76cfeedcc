#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn analyze gates <project.yaml> [--run ID | --checkpoint PATH] (--text TEXT | --file F)
//  [--float16] [--json | --csv] [--output FILE]`: every probe of every layer over a text;
// the statistics table by default, the full traces in JSON or CSV.
// `mrnn analyze tree <project.yaml> [--run ID | --checkpoint PATH] [--compare <project2.yaml>]
//  --context TEXT [--depth 2] [--first-k 64] [--top-k 10] [--mass 0.9] [--all-layers]
//  [--max-nodes N] [--json | --csv] [--output FILE]`: the hidden-state tree and its width per
// depth, for one model or two side by side.
// Returns 0, 1 (bad input: files, texts, checkpoints) or 2 (usage).
int runProbingAnalysis(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
