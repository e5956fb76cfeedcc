#pragma once

#include <ostream>

#include "command_line.h"

namespace mrnn::app {

// mrnn score <project.yaml> [--run ID | --checkpoint PATH] (--text TEXT | --file F)
//            [--context TEXT] [--json | --csv]
// mrnn score debag <project.yaml> [--run ID | --checkpoint PATH] --left TEXT --bag "w1 w2"
//            [--right TEXT] [--beam N] [--top N] [--json | --csv]
int runScoreCommand(const CommandLine& args, std::ostream& out, std::ostream& err);

// mrnn analyze recovery <project.yaml>[,<project2.yaml>...] --file F [--top 0.1]
//            [--offsets 4] [--json | --csv]
// mrnn analyze mask <project.yaml> --file F [--layer N|all] [--p-max 0.5] [--p-step 0.05]
//            [--runs 5] [--seed S] [--json | --csv]
int runScoringAnalysis(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
