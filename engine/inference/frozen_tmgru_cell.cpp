#include "engine/inference/frozen_tmgru_cell.h"

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: [W_mx x (3M: z, r, h), W_x x + b (3H: z, r, j)], as TmgruCell::projectInputs(). V is
// [3, H, M]: V_z, V_r, V_h.
FrozenTmgruCell::FrozenTmgruCell(const LayerConfig& config, int64_t inputSize,
                                 FrozenWeights& weights)
    : FrozenCell(config, inputSize, 3 * config.intermediateSize() + 3 * config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMhZr_ = weights.take("W_mh_zr", 2 * m, h);
  wMhH_ = weights.take("W_mh_h", m, h);
  v_ = weights.take("V", 3 * h, m);
  mzr_.resize(2 * m);
  rh_.resize(h);
  mh_.resize(m);
}

void FrozenTmgruCell::step(float* xp, float* h, float*, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  const int64_t m = config().intermediateSize();
  float* mzr = mzr_.data();
  gemv(wMhZr_.data(), 2 * m, n, h, mzr, false, run);
  for (int64_t k = 0; k < 2 * m; ++k) mzr[k] = xp[k] * mzr[k];
  float* z = xp + 3 * m;
  float* r = z + n;
  float* j = r + n;
  gemv(v_.data(), n, m, mzr, z, /*accumulate=*/true, run);              // V_z m_z
  gemv(v_.data() + n * m, n, m, mzr + m, r, /*accumulate=*/true, run);  // V_r m_r
  sigmoidInPlace(z, 2 * n);
  float* rh = rh_.data();
  for (int64_t k = 0; k < n; ++k) rh[k] = r[k] * h[k];
  float* mh = mh_.data();
  gemv(wMhH_.data(), m, n, rh, mh, false, run);
  const float* mxH = xp + 2 * m;
  for (int64_t k = 0; k < m; ++k) mh[k] = mxH[k] * mh[k];
  gemv(v_.data() + 2 * n * m, n, m, mh, j, /*accumulate=*/true, run);  // V_h m_h
  tanhInPlace(j, n);
  gruFinish(z, j, h, n);
}

}  // namespace mrnn::engine
