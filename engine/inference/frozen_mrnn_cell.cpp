#include "engine/inference/frozen_mrnn_cell.h"

#include <algorithm>

#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: [W_mx x (M), W_hx x + b (H)], as MrnnCell::projectInputs().
FrozenMrnnCell::FrozenMrnnCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights)
    : FrozenCell(config, inputSize, config.intermediateSize() + config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMh_ = weights.take("W_mh", m, h);
  wHm_ = weights.take("W_hm", h, m);
  m_.resize(m);
}

void FrozenMrnnCell::step(float* xp, float* h, float*, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  const int64_t m = config().intermediateSize();
  float* mt = m_.data();
  gemv(wMh_.data(), m, n, h, mt, false, run);
  for (int64_t k = 0; k < m; ++k) mt[k] = xp[k] * mt[k];
  float* pre = xp + m;
  gemv(wHm_.data(), n, m, mt, pre, /*accumulate=*/true, run);
  tanhInPlace(pre, n);
  std::copy(pre, pre + n, h);
}

}  // namespace mrnn::engine
