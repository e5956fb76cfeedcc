#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn bench [--cells mlstm,lstm] [--measures train,eval,sample] [shape options]
//  [--repeats N] [--threads N] [--device cpu|cuda] [--peer PATH|none] [--python P]
//  [--no-torch-lstm] [--markdown FILE]`: the benchmark suite (engine/bench/bench_suite.h),
// printed as markdown. `--probe train|eval|sample --cells CELL` is one measurement in this
// process, the suite's worker.
int runBench(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
