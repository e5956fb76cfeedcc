#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "engine/sampling/sampling_options.h"

namespace mrnn::engine {

// Picks the next symbol from a row of log-probabilities. Works on plain CPU buffers sized
// once, so a generation step allocates nothing here, and draws from its own Mersenne
// Twister (std::mt19937_64 is specified bit for bit), so a seed gives the same text on every
// platform and LibTorch version.
class SymbolChooser {
 public:
  SymbolChooser(const SamplingOptions& options, int64_t vocab);

  // logp: `vocab` natural-log probabilities.
  int64_t choose(const float* logp);
  // The `count` most probable ids, most probable first, into `ids` (resized).
  void mostProbable(const float* logp, int64_t count, std::vector<int64_t>& ids);

 private:
  double uniform();  // [0, 1)

  double temperature_;
  int64_t topK_;
  double topP_;
  bool greedy_;
  int64_t vocab_;
  std::mt19937_64 random_;
  std::vector<double> weights_;
  std::vector<int64_t> order_;
};

}  // namespace mrnn::engine
