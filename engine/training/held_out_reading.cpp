#include "engine/training/held_out_reading.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace mrnn::engine {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Reads tokens[from, from + count) on the frozen copy from its current state.
void readFrozen(SingleStreamModel& frozen, const TokenStream& tokens, int64_t from, int64_t count) {
  std::vector<int64_t> ids(static_cast<size_t>(count));
  tokens.copy(from, count, ids.data());
  for (const int64_t id : ids) frozen.step(id);
}

double largestDifference(const ModelState& a, const ModelState& b) {
  double largest = 0.0;
  for (size_t l = 0; l < a.layers.size(); ++l) {
    for (size_t p = 0; p < a.layers[l].parts.size(); ++p) {
      largest = std::max(largest,
                         (a.layers[l].parts[p] - b.layers[l].parts[p]).abs().max().item<double>());
    }
  }
  return largest;
}

// Whether two readings of the same windows, one from the zero state and one from the state
// another stretch of text left, meet within `windows` windows: a model that forgets its
// start that fast costs the streams only a few windows each of re-reading.
bool forgetsWithin(SingleStreamModel& frozen, const TokenStream& tokens, int64_t from, int64_t bptt,
                   int64_t windows) {
  const ModelState other = frozen.exportState();  // where the preceding text left it
  std::vector<ModelState> cold;
  frozen.reset();
  for (int64_t w = 0; w < windows; ++w) {
    readFrozen(frozen, tokens, from + w * bptt, bptt);
    cold.push_back(frozen.exportState());
  }
  frozen.importState(other);
  for (int64_t w = 0; w < windows; ++w) {
    readFrozen(frozen, tokens, from + w * bptt, bptt);
    // The batched reading's own test of two readings meeting (OneStreamOptions::tolerance).
    if (largestDifference(frozen.exportState(), cold[static_cast<size_t>(w)]) <= 1e-4) return true;
  }
  return false;
}

}  // namespace

HeldOutReading raceReadings(LanguageModel& model, SingleStreamModel& frozen,
                            const TokenStream& tokens, int64_t batch, int64_t bptt) {
  const int64_t positions = tokens.size() - 1;
  constexpr int64_t kForgetWindows = 3;
  // Streams re-read about kForgetWindows windows each, and the race reads about one window of
  // them: with fewer than kRaceWindows windows per stream that is too large a share to repay.
  if (batch <= 1 || positions < kRaceWindows * batch * bptt) return HeldOutReading::SingleStream;

  frozen.reset();
  const auto singleStart = Clock::now();
  readFrozen(frozen, tokens, 0, 2 * bptt);
  const double single = secondsSince(singleStart) / static_cast<double>(2 * bptt);
  if (!forgetsWithin(frozen, tokens, 2 * bptt, bptt, kForgetWindows)) {
    return HeldOutReading::SingleStream;
  }

  // One window of `batch` streams, after one untimed to make the allocations.
  const int64_t stride = positions / batch;
  std::vector<int64_t> ids(static_cast<size_t>(bptt * batch));
  std::vector<int64_t> row(static_cast<size_t>(bptt));
  for (int64_t b = 0; b < batch; ++b) {
    tokens.copy(b * stride, bptt, row.data());
    for (int64_t t = 0; t < bptt; ++t)
      ids[static_cast<size_t>(t * batch + b)] = row[static_cast<size_t>(t)];
  }
  const auto inputs = torch::tensor(ids, torch::kLong).view({bptt, batch});
  // A few steps first to make the allocations, then one window timed.
  auto warm = model.initialState(batch);
  model.forward(inputs.slice(0, 0, std::min<int64_t>(bptt, 4)), warm).sum().item<double>();
  auto state = model.initialState(batch);
  const auto start = Clock::now();
  model.forward(inputs, state).sum().item<double>();
  const double streams = secondsSince(start) / static_cast<double>(bptt * batch);
  // The streams' first pass, their re-reading, and a margin for the rounds' bookkeeping.
  const double rereading =
      static_cast<double>(kForgetWindows * bptt * batch) / static_cast<double>(positions);
  return streams * (1.0 + rereading) * 1.25 < single ? HeldOutReading::Streams
                                                     : HeldOutReading::SingleStream;
}

}  // namespace mrnn::engine
