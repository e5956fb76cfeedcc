#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/data/corpus.h"
#include "engine/models/language_model.h"
#include "engine/training/evaluator.h"

namespace mrnn::engine {

class JobContext;

struct MaskingOptions {
  std::optional<size_t> layer;  // 0-based; none: every layer masked at once
  double pMax = 0.5;
  double pStep = 0.05;
  int64_t runs = 5;  // Bernoulli masks drawn per P (P = 0 is evaluated once: no mask)
  uint64_t seed = 1;
  EvalOptions eval;  // how each evaluation runs (batch, bptt, max symbols)
};

// Shuang et al. §V-C, Fig. 5: evaluation loss (nats per symbol) when each output feature of
// a layer is zeroed with probability P (a Bernoulli mask, fixed over the whole evaluation,
// no rescaling), averaged over `runs` masks. std is the population standard deviation.
struct MaskingCurve {
  std::optional<size_t> layer;  // none: all layers
  std::vector<double> p;
  std::vector<double> meanLoss;
  std::vector<double> stdLoss;
  int64_t runs = 0;
};

// The P values 0, step, 2 step, ... up to pMax (inclusive, within rounding).
std::vector<double> maskingLevels(double pMax, double pStep);

// The feature mask for one run: 1 keeps a feature, 0 zeroes it; a pure function of
// (seed, level index, run, layer), so curves are reproducible and layers independent.
std::vector<float> bernoulliMask(int64_t features, double p, uint64_t seed, size_t level,
                                 int64_t run, size_t layer);

// Evaluates `split` under the masks. The model's output masks are cleared afterwards (also
// when cancelled). Throws std::invalid_argument for a layer out of range, a step <= 0 or
// pMax outside [0, 1].
MaskingCurve featureMasking(LanguageModel& model, const CorpusSplit& split,
                            const MaskingOptions& options, JobContext* job = nullptr);

}  // namespace mrnn::engine
