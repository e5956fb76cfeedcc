#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/config/evaluation_config.h"
#include "engine/data/corpus.h"
#include "engine/models/language_model.h"
#include "engine/training/metrics.h"

namespace mrnn::engine {

struct EvalOptions {
  int64_t batch = 1;
  int64_t bptt = 100;
  int64_t maxSymbols = 0;    // > 0: score only the first N symbols
  double temperature = 1.0;  // softmax temperature (1: the model as trained)
  int64_t mcSamples = 0;     // > 0: average the predictions of N dropout masks (Melis §3.3)
  torch::Device device = torch::kCPU;
};

// Progress 0..1; returning false cancels (the evaluation then throws EvaluationCancelled).
using EvalProgress = std::function<bool(double)>;

class EvaluationCancelled : public std::runtime_error {
 public:
  EvaluationCancelled() : std::runtime_error("evaluation cancelled") {}
};

// Scores a split: B parallel streams, state carried across windows, no gradients, dropout
// off (or on, averaged over samples, for MC dropout). Words for eq. 23 come from the split.
// With a target mask (CorpusSplit::targetMask) only the targets it keeps are scored, and
// LossFigures::symbols counts those alone; maxSymbols still cuts by positions read.
LossFigures evaluateStatic(LanguageModel& model, const CorpusSplit& split,
                           const EvalOptions& options, const EvalProgress& progress = {});

// Dynamic evaluation (Krause et al. 2017), one stream: each window is scored, then the
// weights adapt to it (SGD, or RMS with decay toward the trained weights, where MS comes from
// `gradientBatches` windows of `train`). The model's weights are restored afterwards. Target
// masks count as in evaluateStatic, for the score and for the gradients.
LossFigures evaluateDynamic(LanguageModel& model, const CorpusSplit& split,
                            const CorpusSplit& train, const DynamicEvalConfig& config,
                            const EvalOptions& options, const EvalProgress& progress = {});

// Chooses the temperature with the lowest validation loss among `steps` values spread
// evenly over [low, high]. Returns the temperature and the figures at it.
std::pair<double, LossFigures> tuneTemperature(LanguageModel& model, const CorpusSplit& valid,
                                               const EvalOptions& options, double low, double high,
                                               int64_t steps, const EvalProgress& progress = {});

}  // namespace mrnn::engine
