#include "engine/inference/frozen_rnn_cell.h"

#include <algorithm>

#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

FrozenRnnCell::FrozenRnnCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights)
    : FrozenCell(config, inputSize, config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  wHh_ = weights.take("W_hh", h, h);
}

void FrozenRnnCell::step(float* xp, float* h, float*, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  gemv(wHh_.data(), n, n, h, xp, /*accumulate=*/true, run);
  tanhInPlace(xp, n);
  std::copy(xp, xp + n, h);
}

}  // namespace mrnn::engine
