#include "engine/inference/single_stream_scoring.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mrnn::engine {
namespace {

void check(const TokenStream& tokens, const TokenStream& targetMask,
           const SingleStreamScoring& options) {
  if (tokens.size() < 2) {
    throw std::invalid_argument("scoring needs at least 2 symbols, the text has " +
                                std::to_string(tokens.size()));
  }
  if (targetMask.size() > 0 && targetMask.size() != tokens.size()) {
    throw std::invalid_argument("scoring: the target mask has " +
                                std::to_string(targetMask.size()) + " entries for " +
                                std::to_string(tokens.size()) + " symbols");
  }
  if (options.window < 1) throw std::invalid_argument("scoring: the window must be at least 1");
  if (options.temperatures.empty()) throw std::invalid_argument("scoring: no temperature");
  for (const double t : options.temperatures) {
    if (!(t > 0.0)) {
      throw std::invalid_argument("scoring: a temperature must be positive, not " +
                                  std::to_string(t));
    }
  }
}

// -log softmax(logp / T)[target], from log-probabilities `logp` [V].
double temperedLoss(const float* logp, int64_t vocab, int64_t target, double temperature) {
  if (temperature == 1.0) return -static_cast<double>(logp[target]);
  const double scale = 1.0 / temperature;
  double top = logp[0];
  for (int64_t j = 1; j < vocab; ++j) top = std::max(top, static_cast<double>(logp[j]));
  double sum = 0.0;
  for (int64_t j = 0; j < vocab; ++j) sum += std::exp((logp[j] - top) * scale);
  return -((logp[target] - top) * scale - std::log(sum));
}

}  // namespace

SingleStreamTotals scoreSingleStream(SingleStreamModel& model, const TokenStream& tokens,
                                     const TokenStream& targetMask,
                                     const SingleStreamScoring& options) {
  check(tokens, targetMask, options);
  const int64_t positions = tokens.size() - 1;
  const bool masked = targetMask.size() > 0;
  const size_t temperatures = options.temperatures.size();
  SingleStreamTotals totals;
  totals.nats.assign(temperatures, 0.0);
  totals.positions = positions;
  model.reset();
  // A window's symbols and its next one (the last target), copied out of the stream at once.
  std::vector<int64_t> ids(static_cast<size_t>(options.window) + 1);
  std::vector<int64_t> keep(masked ? ids.size() : 0);
  for (int64_t start = 0; start < positions; start += options.window) {
    const int64_t steps = std::min(options.window, positions - start);
    tokens.copy(start, steps + 1, ids.data());
    if (masked) targetMask.copy(start + 1, steps, keep.data());
    if (options.beforeWindow) options.beforeWindow();
    for (int64_t t = 0; t < steps; ++t) {
      const float* logp = model.step(ids[static_cast<size_t>(t)]);
      if (masked && keep[static_cast<size_t>(t)] == 0) continue;
      const int64_t target = ids[static_cast<size_t>(t) + 1];
      if (target < 0 || target >= model.vocab()) {
        throw std::out_of_range("symbol id " + std::to_string(target) +
                                " is outside the vocabulary of " + std::to_string(model.vocab()));
      }
      for (size_t k = 0; k < temperatures; ++k) {
        totals.nats[k] += temperedLoss(logp, model.vocab(), target, options.temperatures[k]);
      }
      ++totals.counted;
    }
    if (options.progress) {
      options.progress(static_cast<double>(start + steps) / static_cast<double>(positions));
    }
  }
  return totals;
}

}  // namespace mrnn::engine
