#include "engine/sampling/symbol_chooser.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mrnn::engine {

SymbolChooser::SymbolChooser(const SamplingOptions& options, int64_t vocab)
    : temperature_(options.temperature),
      topK_(options.topK > 0 && options.topK < vocab ? options.topK : vocab),
      topP_(options.topP),
      greedy_(options.greedy),
      vocab_(vocab),
      random_(options.seed),
      weights_(static_cast<size_t>(vocab)),
      order_(static_cast<size_t>(vocab)) {}

double SymbolChooser::uniform() {
  return static_cast<double>(random_() >> 11) * 0x1.0p-53;
}

int64_t SymbolChooser::choose(const float* logp) {
  const float* best = std::max_element(logp, logp + vocab_);
  if (greedy_) return best - logp;
  // Tempered weights relative to the best symbol: exp((logp - max) / T), never overflowing;
  // at a temperature near 0 every other weight underflows to 0, which is greedy.
  const double top = *best;
  std::iota(order_.begin(), order_.end(), int64_t{0});
  auto byWeight = [this](int64_t a, int64_t b) { return weights_[a] > weights_[b]; };
  for (int64_t i = 0; i < vocab_; ++i) weights_[i] = std::exp((logp[i] - top) / temperature_);
  int64_t kept = vocab_;
  if (topK_ < vocab_) {
    std::nth_element(order_.begin(), order_.begin() + topK_ - 1, order_.end(), byWeight);
    kept = topK_;
  }
  if (topP_ < 1.0) {
    // The nucleus: the fewest most probable symbols whose (tempered) mass reaches topP.
    std::sort(order_.begin(), order_.begin() + kept, byWeight);
    double total = 0.0;
    for (int64_t i = 0; i < kept; ++i) total += weights_[order_[i]];
    double mass = 0.0;
    int64_t nucleus = 0;
    while (nucleus < kept && mass < topP_ * total) mass += weights_[order_[nucleus++]];
    kept = std::max<int64_t>(nucleus, 1);
  }
  double total = 0.0;
  for (int64_t i = 0; i < kept; ++i) total += weights_[order_[i]];
  double target = uniform() * total;
  for (int64_t i = 0; i < kept; ++i) {
    const int64_t id = order_[i];
    target -= weights_[id];
    if (target < 0.0 && weights_[id] > 0.0) return id;
  }
  // Rounding left the draw past the end: the last symbol with any weight.
  for (int64_t i = kept - 1; i >= 0; --i) {
    if (weights_[order_[i]] > 0.0) return order_[i];
  }
  return best - logp;
}

void SymbolChooser::mostProbable(const float* logp, int64_t count, std::vector<int64_t>& ids) {
  count = std::min(count, vocab_);
  std::iota(order_.begin(), order_.end(), int64_t{0});
  std::partial_sort(order_.begin(), order_.begin() + count, order_.end(),
                    [logp](int64_t a, int64_t b) { return logp[a] > logp[b]; });
  ids.assign(order_.begin(), order_.begin() + count);
}

}  // namespace mrnn::engine
