#include "engine/inference/frozen_mlstm_cell.h"

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: [W_mx x (M), W_x x + b (4H)], as MlstmCell::projectInputs().
FrozenMlstmCell::FrozenMlstmCell(const LayerConfig& config, int64_t inputSize,
                                 FrozenWeights& weights)
    : FrozenCell(config, inputSize, config.intermediateSize() + 4 * config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMh_ = weights.take("W_mh", m, h);
  wM_ = weights.take("W_m", 4 * h, m);
  m_.resize(m);
}

void FrozenMlstmCell::step(float* xp, float* h, float* c, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  const int64_t m = config().intermediateSize();
  float* mt = m_.data();
  gemv(wMh_.data(), m, n, h, mt, false, run);
  for (int64_t k = 0; k < m; ++k) mt[k] = xp[k] * mt[k];
  float* pre = xp + m;
  gemv(wM_.data(), 4 * n, m, mt, pre, /*accumulate=*/true, run);
  lstmFinish(pre, c, h, n, config().outputGate);
}

}  // namespace mrnn::engine
