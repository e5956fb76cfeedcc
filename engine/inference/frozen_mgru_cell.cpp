#include "engine/inference/frozen_mgru_cell.h"

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: [W_mx x (M), then W_x x + b with rows z (H), r (M), j (H)], as MgruCell::projectInputs().
FrozenMgruCell::FrozenMgruCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights)
    : FrozenCell(config, inputSize, 2 * config.intermediateSize() + 2 * config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMh_ = weights.take("W_mh", m, h);
  vZ_ = weights.take("V_z", h, m);
  vR_ = weights.take("V_r", m, m);
  vH_ = weights.take("V_h", h, m);
  m_.resize(m);
  rm_.resize(m);
}

void FrozenMgruCell::step(float* xp, float* h, float*, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  const int64_t m = config().intermediateSize();
  float* mt = m_.data();
  gemv(wMh_.data(), m, n, h, mt, false, run);
  for (int64_t k = 0; k < m; ++k) mt[k] = xp[k] * mt[k];
  float* z = xp + m;
  float* r = z + n;  // z and r are contiguous: one sigmoid for both
  gemv(vZ_.data(), n, m, mt, z, /*accumulate=*/true, run);
  gemv(vR_.data(), m, m, mt, r, /*accumulate=*/true, run);
  sigmoidInPlace(z, n + m);
  float* rm = rm_.data();
  for (int64_t k = 0; k < m; ++k) rm[k] = r[k] * mt[k];
  float* j = r + m;
  gemv(vH_.data(), n, m, rm, j, /*accumulate=*/true, run);
  tanhInPlace(j, n);
  gruFinish(z, j, h, n);
}

}  // namespace mrnn::engine
