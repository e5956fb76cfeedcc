#pragma once

#include <ostream>

#include "command_line.h"

namespace mrnn::app {

// mrnn analyze copy <project.yaml>[,<project2.yaml>...] [--run ID | --checkpoint PATH]
//            [--length L] [--examples N] [--seed S] [--batch B] [--json [FILE]] [--csv [FILE]]
// Scores each model on fresh reverse copy examples (Melis et al. 2019 §4.3).
int runCopyAnalysis(const CommandLine& args, std::ostream& out, std::ostream& err);

// mrnn data copy [<project.yaml>] --output DIR [--vocabulary V] [--length L]
//            [--train-examples N] [--valid-examples N] [--test-examples N] [--seed S]
// Writes the reverse copy splits as text files (train.txt, valid.txt, test.txt, vocab.txt).
int runDataCopy(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
