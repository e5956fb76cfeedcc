#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "engine/data/corpus.h"

namespace mrnn::engine {

class JobContext;
class LanguageModel;  // engine/models/language_model.h

// How the masks are drawn. Shuang §V-C masks "as in the forward propagation of the model
// with dropout in training"; their models (AWD-LSTM) drop an LSTM layer's outputs with one
// mask per stream held over the steps of a window and drawn afresh for the next window, and
// scale the kept features by 1 / (1 - P). That is the default. Where the paper is silent on
// the scaling, we follow the dropout it names.
enum class MaskDraw {
  PerWindow,  // a mask per window and per stream (the paper's procedure)
  Fixed,      // one mask [H] for the whole evaluation (an ablation: the same units stay off)
};

// How each evaluation under masks reads the text (as EvalOptions does; the device is the
// model's).
struct MaskingEvaluation {
  int64_t batch = 1;
  int64_t bptt = 100;
  int64_t maxSymbols = 0;  // > 0: score only the first N symbols
};

struct MaskingOptions {
  std::optional<size_t> layer;  // 0-based; none: every layer masked at once
  double pMax = 0.5;
  double pStep = 0.05;
  int64_t runs = 5;  // evaluations per P, each with its own masks (P = 0 is evaluated once)
  uint64_t seed = 1;
  MaskDraw draw = MaskDraw::PerWindow;
  bool rescale = true;     // kept features times 1 / (1 - P), as dropout in training
  MaskingEvaluation eval;  // how each evaluation reads the text
};

// Shuang et al. §V-C, Fig. 5: the evaluation when each output feature of a layer is zeroed
// with probability P, over `runs` runs. As the paper reports it, the curve is the perplexity
// averaged over the runs (an arithmetic mean of perplexities, not of losses); meanLoss is
// the log of that mean, in nats per symbol, so that it plots on the loss axis; stdLoss is
// the population standard deviation of the runs' losses, stdPerplexity of their perplexities.
struct MaskingCurve {
  std::optional<size_t> layer;  // none: all layers
  std::vector<double> p;
  std::vector<double> meanPerplexity;
  std::vector<double> stdPerplexity;
  std::vector<double> meanLoss;
  std::vector<double> stdLoss;
  std::vector<std::vector<double>> runLosses;  // per P: each run's loss, nats per symbol
  int64_t runs = 0;
  int64_t masksPerRun = 0;  // masks drawn in one run (windows read, per-window draw)
  int64_t symbols = 0;      // positions each evaluation read (the text, or its first N)
};

// The P values 0, step, 2 step, ... up to pMax (inclusive, within rounding).
std::vector<double> maskingLevels(double pMax, double pStep);

// The feature mask for one run: 1 keeps a feature, 0 zeroes it; a pure function of
// (seed, level index, run, layer), so curves are reproducible and layers independent.
std::vector<float> bernoulliMask(int64_t features, double p, uint64_t seed, size_t level,
                                 int64_t run, size_t layer);

// Draws per-window masks for one run: rows of `features` values, 0 (dropped, probability P)
// or the keep value (1, or 1 / (1 - P) rescaled), from a generator seeded by (seed, level,
// run, layer), so each run is reproducible and the layers' masks are independent.
class WindowMaskDrawer {
 public:
  WindowMaskDrawer(int64_t features, double p, bool rescale, uint64_t seed, size_t level,
                   int64_t run, size_t layer);
  // The next window's mask, [streams * features] row-major.
  std::vector<float> next(int64_t streams);

 private:
  int64_t features_;
  double p_;
  float keep_;
  std::mt19937_64 generator_;
};

// Evaluates `split` under the masks, the model in eval mode. Its mode is restored and its
// output masks cleared afterwards (also when cancelled). Throws std::invalid_argument for a layer
// out of range, a step <= 0 or pMax outside [0, 1].
MaskingCurve featureMasking(LanguageModel& model, const CorpusSplit& split,
                            const MaskingOptions& options, JobContext* job = nullptr);

}  // namespace mrnn::engine
