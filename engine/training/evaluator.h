#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "engine/config/evaluation_config.h"
#include "engine/data/corpus.h"
#include "engine/models/language_model.h"
#include "engine/training/held_out_reading.h"
#include "engine/training/metrics.h"

namespace mrnn::engine {

class Collective;
class JobContext;

struct EvalOptions {
  int64_t batch = 1;
  int64_t bptt = 100;
  int64_t maxSymbols = 0;    // > 0: score only the first N symbols
  double temperature = 1.0;  // softmax temperature (1: the model as trained)
  int64_t mcSamples = 0;     // > 0: average the predictions of N dropout masks (Melis §3.3)
  torch::Device device = torch::kCPU;
  // Called before each window with the number of streams it reads: an analysis that perturbs
  // the model per window (feature masking) draws its masks here. The model is then random,
  // so the re-reading rounds stop after one, as for MC dropout (OneStreamOptions::maxRounds).
  std::function<void(int64_t streams)> beforeWindow;
  // Data parallel (evaluateStatic): each window's streams are split over the ranks, and every
  // rank returns the same figures (splitAcrossRanks). Null: this process scores them all.
  Collective* collective = nullptr;
  // How the exact figure is read on the CPU (held_out_reading.h). Chosen: from the model and
  // the text alone (chooseReading). The single stream applies to float32 CPU models with a
  // distribution over symbols, without MC dropout, on one process, and with per-window draws
  // only at batch 1; elsewhere (and on a GPU) the streams read.
  HeldOutReading reading = HeldOutReading::Chosen;
};

// Every evaluation reports to `job` (may be null) and stops with JobCancelledError when it
// is cancelled; the model's weights and mode are as before either way.

// Scores a split: B parallel streams, state carried across windows, no gradients, dropout
// off (or on, averaged over samples, for MC dropout). Words for eq. 23 come from the split.
// With a target mask (CorpusSplit::targetMask) only the targets it keeps are scored, and
// LossFigures::symbols counts those alone; maxSymbols still cuts by positions read.
LossFigures evaluateStatic(LanguageModel& model, const CorpusSplit& split,
                           const EvalOptions& options, JobContext* job = nullptr);

// Dynamic evaluation (Krause et al. 2017), the evaluated text read as one stream in segments
// of `config.window` symbols: each segment is scored, then the weights adapt to it. SGD:
// theta -= eta * g. RMS, as the method's reference code (benkrause/dynamic-evaluation)
// computes it, both terms from the same theta:
//   theta += lambda * decrate * (theta0 - theta) - eta * g / (MS + epsilon)
// with MS and decrate from rmsGradientStatistics and rmsDecayRates. g is the gradient of the
// segment's mean loss. The model's weights are restored afterwards. Target masks count as in
// evaluateStatic, for the score and for the gradients. `config.gradientBatchSize` must be set
// (withTrainingBatch fills in the training batch size for 0).
LossFigures evaluateDynamic(LanguageModel& model, const CorpusSplit& split,
                            const CorpusSplit& train, const DynamicEvalConfig& config,
                            const EvalOptions& options, JobContext* job = nullptr);

// MS per parameter element: sqrt(mean over the training batches of g^2), g the gradient of
// each batch's mean loss, in eval mode, `config.gradientBatchSize` streams of
// `config.window` symbols with the state carried, over the whole training split (or its first
// `config.gradientBatches` batches when that is > 0). Throws std::invalid_argument for a
// gradient batch size below 1.
std::vector<torch::Tensor> rmsGradientStatistics(LanguageModel& model, const CorpusSplit& train,
                                                 const DynamicEvalConfig& config,
                                                 const torch::Device& device = torch::kCPU);

// lambda * decrate per element: decrate = MS / gsum clipped at 1 / lambda, gsum the average
// over the parameter tensors of each tensor's mean MS.
std::vector<torch::Tensor> rmsDecayRates(const std::vector<torch::Tensor>& rms, double lambda);

// Chooses the temperature with the lowest validation loss among `steps` values spread
// evenly over [low, high]. Returns the temperature and the figures at it.
std::pair<double, LossFigures> tuneTemperature(LanguageModel& model, const CorpusSplit& valid,
                                               const EvalOptions& options, double low, double high,
                                               int64_t steps, JobContext* job = nullptr);

}  // namespace mrnn::engine
