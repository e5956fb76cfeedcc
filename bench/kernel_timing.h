#pragma once

#include <cstdint>
#include <vector>

#include "engine/kernels/vector_kernels.h"

namespace mrnn::bench {

// The sampler's kernels timed one by one, every set in turn within each round (the order
// rotated from round to round, so no set always runs first): gemv at a 512-unit mLSTM's
// shapes (W_mh [m, H], W_m [4H, m], the softmax [vocab, H], and the three in a row as one
// step reads them), sigmoid over 3H, tanh over H, the sum of exp over the vocabulary. Each
// set's own single-threaded functions, no dispatch. Prints each round, then per kernel the
// median ns per call over the rounds with its range, and every other set against the first.
struct KernelTimingOptions {
  std::vector<engine::NamedKernelSet> sets;
  int rounds = 15;
  int64_t hidden = 512;
  int64_t intermediate = 512;  // the mLSTM's m
  int64_t vocab = 128;
  double millisecondsPerTiming = 20.0;  // each kernel's calls per timing take about this long
};

void runKernelTimings(const KernelTimingOptions& options);

}  // namespace mrnn::bench
