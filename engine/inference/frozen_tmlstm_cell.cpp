#include "engine/inference/frozen_tmlstm_cell.h"

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: [W_mx x (4M, gate-major), W_x x + b (4H)], as TmlstmCell::projectInputs(). V is
// [4, H, M]: block g is gate g's own [H, M] matrix.
FrozenTmlstmCell::FrozenTmlstmCell(const LayerConfig& config, int64_t inputSize,
                                   FrozenWeights& weights)
    : FrozenCell(config, inputSize, 4 * config.intermediateSize() + 4 * config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMh_ = weights.take("W_mh", 4 * m, h);
  v_ = weights.take("V", 4 * h, m);
  m_.resize(4 * m);
}

void FrozenTmlstmCell::step(float* xp, float* h, float* c, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  const int64_t m = config().intermediateSize();
  float* mAll = m_.data();
  gemv(wMh_.data(), 4 * m, n, h, mAll, false, run);
  for (int64_t k = 0; k < 4 * m; ++k) mAll[k] = xp[k] * mAll[k];
  float* pre = xp + 4 * m;
  for (int64_t g = 0; g < 4; ++g) {
    gemv(v_.data() + g * n * m, n, m, mAll + g * m, pre + g * n, /*accumulate=*/true, run);
  }
  lstmFinish(pre, c, h, n, config().outputGate);
}

}  // namespace mrnn::engine
