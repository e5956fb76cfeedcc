#pragma once

#include <string>

namespace mrnn::engine {

// A named figure of one step (an update rule's: Hessian-free's CG iterations, λ, ρ); the
// name is its metric's, below.
struct NamedFigure {
  std::string name;
  double value = 0.0;
};

}  // namespace mrnn::engine

// The names of the metric series a training run writes to the run store (RunStore::
// appendMetrics): the trainer writes them, the workbench's charts, the run follower and the
// exports read them. One home, so that the two sides cannot drift apart.
namespace mrnn::engine::metric {

// Every step.
inline constexpr const char* kTrainLoss = "train/loss";    // nats per symbol
inline constexpr const char* kTrainBits = "train/bpc";     // bits per symbol
inline constexpr const char* kLearningRate = "lr";         // rules with a learning rate
inline constexpr const char* kGradientNorm = "grad_norm";  // before clipping
inline constexpr const char* kSymbolsPerSecond = "symbols_per_s";
// Training symbols read since the run began: the axis on which runs trained by different
// rules (one window a step, or Hessian-free's many) compare fairly.
inline constexpr const char* kSymbols = "symbols";

// Every Hessian-free step (HessianFreeRule).
inline constexpr const char* kCgIterations = "hf/cg_iterations";  // CG iterations run
inline constexpr const char* kLambda = "hf/lambda";               // λ after the step's update
inline constexpr const char* kRho = "hf/rho";                     // the reduction ratio ρ
inline constexpr const char* kBacktrackedIterate = "hf/backtracked_iterate";  // CG iteration kept
inline constexpr const char* kStepSize = "hf/step_size";  // the line search's rate (0: rejected)

// Every validation, and the test at the end.
inline constexpr const char* kValidLoss = "valid/loss";
inline constexpr const char* kValidBits = "valid/bpc";
inline constexpr const char* kValidPerplexity = "valid/ppl";
inline constexpr const char* kValidBitsPerWord = "valid/bpw";
// A long-range problem's share of held-out sequences got wrong (solved below 0.01).
inline constexpr const char* kValidErrorRate = "valid/error_rate";
inline constexpr const char* kTestErrorRate = "test/error_rate";
inline constexpr const char* kTestBits = "test/bpc";
inline constexpr const char* kTestBitsPerWord = "test/bpw";
// The test figure's road: 1, read as one stream; B, B parallel streams stitched into one.
inline constexpr const char* kTestReadingStreams = "test/read_streams";

// Data parallel: rank r's symbols per second on its own streams.
inline std::string rankSymbolsPerSecond(int rank) {
  return "rank" + std::to_string(rank) + "/symbols_per_s";
}

}  // namespace mrnn::engine::metric
