#include "engine/inference/frozen_gru_cell.h"

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: W_x x + b [3H], rows z, r, j.
FrozenGruCell::FrozenGruCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights)
    : FrozenCell(config, inputSize, 3 * config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  wZr_ = weights.take("W_zr", 2 * h, h);
  wH_ = weights.take("W_h", h, h);
  resetAfter_ = config.resetAfter;
  if (resetAfter_) bHh_ = weights.takeVector("b_hh", h);
  rh_.resize(h);
}

void FrozenGruCell::step(float* xp, float* h, float*, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  gemv(wZr_.data(), 2 * n, n, h, xp, /*accumulate=*/true, run);
  sigmoidInPlace(xp, 2 * n);
  const float* z = xp;
  const float* r = xp + n;
  float* rh = rh_.data();
  float* j = xp + 2 * n;
  if (resetAfter_) {
    // rh holds W_h h + b_hh, which the reset gate scales.
    const float* b = bHh_.data();
    for (int64_t k = 0; k < n; ++k) rh[k] = b[k];
    gemv(wH_.data(), n, n, h, rh, /*accumulate=*/true, run);
    for (int64_t k = 0; k < n; ++k) j[k] += r[k] * rh[k];
  } else {
    for (int64_t k = 0; k < n; ++k) rh[k] = r[k] * h[k];
    gemv(wH_.data(), n, n, rh, j, /*accumulate=*/true, run);
  }
  tanhInPlace(j, n);
  gruFinish(z, j, h, n);
}

}  // namespace mrnn::engine
