#include "engine/scoring/feature_masking.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/model_device.h"
#include "engine/models/eval_mode_guard.h"
#include "engine/models/language_model.h"
#include "engine/training/evaluator.h"

namespace mrnn::engine {
namespace {

// Clears the masks however the evaluation ends.
class MaskReset {
 public:
  explicit MaskReset(LanguageModel& model) : model_(model) {}
  ~MaskReset() { model_.clearOutputMasks(); }
  MaskReset(const MaskReset&) = delete;
  MaskReset& operator=(const MaskReset&) = delete;

 private:
  LanguageModel& model_;
};

uint64_t mix(uint64_t x) {  // splitmix64: spreads nearby seeds apart
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// P for progress text: "0.05", not std::to_string's "0.050000".
std::string levelText(double p) {
  std::ostringstream out;
  out << p;
  return out.str();
}

uint64_t runSeed(uint64_t seed, size_t level, int64_t run, size_t layer) {
  return mix(mix(mix(seed) ^ level) ^ static_cast<uint64_t>(run)) ^ layer;
}

// `count` values: 0 with probability p, else `keep`. Uniforms from the 53 high bits of a
// 64-bit generator: the same on every standard library (std::bernoulli_distribution is not
// specified bit for bit).
std::vector<float> bernoulliDraw(std::mt19937_64& generator, int64_t count, double p, float keep) {
  std::vector<float> mask(static_cast<size_t>(count), keep);
  for (auto& value : mask) {
    const double u = static_cast<double>(generator() >> 11) * 0x1.0p-53;
    if (u < p) value = 0.0f;
  }
  return mask;
}

}  // namespace

std::vector<double> maskingLevels(double pMax, double pStep) {
  if (!(pStep > 0.0)) throw std::invalid_argument("the masking step must be positive");
  if (!(pMax >= 0.0 && pMax <= 1.0)) {
    throw std::invalid_argument("the largest masking fraction must be in [0, 1]");
  }
  std::vector<double> levels;
  // Multiples of the step, not a running sum, so 0.05 x 10 is 0.5 and not 0.49999.
  for (int64_t i = 0;; ++i) {
    const double p = static_cast<double>(i) * pStep;
    if (p > pMax + 1e-9) break;
    levels.push_back(std::min(p, 1.0));
  }
  return levels;
}

std::vector<float> bernoulliMask(int64_t features, double p, uint64_t seed, size_t level,
                                 int64_t run, size_t layer) {
  std::mt19937_64 generator(runSeed(seed, level, run, layer));
  return bernoulliDraw(generator, features, p, 1.0f);
}

WindowMaskDrawer::WindowMaskDrawer(int64_t features, double p, bool rescale, uint64_t seed,
                                   size_t level, int64_t run, size_t layer)
    : features_(features),
      p_(p),
      keep_(rescale && p < 1.0 ? static_cast<float>(1.0 / (1.0 - p)) : 1.0f),
      // Another stream of the run's seed than the fixed mask's.
      generator_(mix(runSeed(seed, level, run, layer) ^ 0x5eed)) {}

std::vector<float> WindowMaskDrawer::next(int64_t streams) {
  return bernoulliDraw(generator_, streams * features_, p_, keep_);
}

MaskingCurve featureMasking(LanguageModel& model, const CorpusSplit& split,
                            const MaskingOptions& options, JobContext* job) {
  if (options.layer && *options.layer >= model.layerCount()) {
    throw std::invalid_argument("there is no layer " + std::to_string(*options.layer + 1) +
                                "; the model has " + std::to_string(model.layerCount()));
  }
  if (options.runs <= 0) throw std::invalid_argument("the number of masking runs must be positive");
  const std::vector<double> levels = maskingLevels(options.pMax, options.pStep);
  EvalModeGuard evalMode(model);  // dropout off: the masks are the only perturbation
  MaskReset reset(model);
  model.clearOutputMasks();

  MaskingCurve curve;
  curve.layer = options.layer;
  curve.runs = options.runs;
  const int64_t length = split.tokens.size();
  curve.symbols = options.eval.maxSymbols > 0 ? std::min(options.eval.maxSymbols, length) : length;
  const auto evaluations = static_cast<double>((levels.size() - 1) * options.runs + 1);
  // Masks and the evaluation's windows go where the model is.
  const torch::Device device = modelDevice(model);
  double done = 0.0;
  for (size_t level = 0; level < levels.size(); ++level) {
    const double p = levels[level];
    const int64_t runs = p == 0.0 ? 1 : options.runs;
    std::vector<double> losses;
    for (int64_t run = 0; run < runs; ++run) {
      EvalOptions eval;
      eval.batch = options.eval.batch;
      eval.bptt = options.eval.bptt;
      eval.maxSymbols = options.eval.maxSymbols;
      eval.device = device;
      std::vector<std::pair<size_t, WindowMaskDrawer>> drawers;
      for (size_t l = 0; l < model.layerCount(); ++l) {
        if (p == 0.0 || (options.layer && *options.layer != l)) continue;
        const int64_t width = model.layer(l).outputSize();
        if (options.draw == MaskDraw::Fixed) {
          // bernoulliMask's draws, with the keep value the options ask for.
          std::mt19937_64 generator(runSeed(options.seed, level, run, l));
          const float keep =
              options.rescale && p < 1.0 ? static_cast<float>(1.0 / (1.0 - p)) : 1.0f;
          model.setOutputMask(l,
                              torch::tensor(bernoulliDraw(generator, width, p, keep)).to(device));
        } else {
          drawers.emplace_back(
              l, WindowMaskDrawer(width, p, options.rescale, options.seed, level, run, l));
        }
      }
      int64_t drawn = 0;
      if (!drawers.empty()) {
        eval.beforeWindow = [&](int64_t streams) {
          for (auto& [l, drawer] : drawers) {
            const int64_t width = model.layer(l).outputSize();
            model.setOutputMask(
                l, torch::tensor(drawer.next(streams)).reshape({streams, width}).to(device));
          }
          ++drawn;
        };
      }
      // The evaluation reports into its share of the job (and stops there when cancelled).
      std::optional<JobContext> part;
      if (job)
        part.emplace(
            job->part(done / evaluations, (done + 1.0) / evaluations, "P = " + levelText(p)));
      losses.push_back(evaluateStatic(model, split, eval, part ? &*part : nullptr).nats);
      model.clearOutputMasks();
      if (drawn > 0) curve.masksPerRun = drawn;
      done += 1.0;
    }
    const auto n = static_cast<double>(losses.size());
    double meanNats = 0.0;
    double meanPerplexity = 0.0;
    for (const double loss : losses) {
      meanNats += loss / n;
      meanPerplexity += std::exp(loss) / n;
    }
    double nats = 0.0;
    double perplexity = 0.0;
    for (const double loss : losses) {
      nats += (loss - meanNats) * (loss - meanNats) / n;
      perplexity += (std::exp(loss) - meanPerplexity) * (std::exp(loss) - meanPerplexity) / n;
    }
    curve.p.push_back(p);
    curve.meanPerplexity.push_back(meanPerplexity);
    curve.stdPerplexity.push_back(std::sqrt(perplexity));
    curve.meanLoss.push_back(std::log(meanPerplexity));
    curve.stdLoss.push_back(std::sqrt(nats));
    curve.runLosses.push_back(losses);
  }
  return curve;
}

}  // namespace mrnn::engine
