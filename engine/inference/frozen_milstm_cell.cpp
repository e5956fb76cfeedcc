#include "engine/inference/frozen_milstm_cell.h"

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: W_x x [4H], without the bias (MilstmCell adds it after the integration).
FrozenMilstmCell::FrozenMilstmCell(const LayerConfig& config, int64_t inputSize,
                                   FrozenWeights& weights)
    : FrozenCell(config, inputSize, 4 * config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  wH_ = weights.take("W_h", 4 * h, h);
  b_ = weights.takeVector("b", 4 * h);
  alpha_ = weights.takeVector("alpha", 4 * h);
  beta1_ = weights.takeVector("beta1", 4 * h);
  beta2_ = weights.takeVector("beta2", 4 * h);
  uh_.resize(4 * h);
}

void FrozenMilstmCell::step(float* xp, float* h, float* c, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  float* uh = uh_.data();
  gemv(wH_.data(), 4 * n, n, h, uh, false, run);
  // MilstmCell::recur()'s order: alpha * xp * uh + beta1 * uh + beta2 * xp + b.
  for (int64_t k = 0; k < 4 * n; ++k) {
    xp[k] = alpha_[k] * xp[k] * uh[k] + beta1_[k] * uh[k] + beta2_[k] * xp[k] + b_[k];
  }
  lstmFinish(xp, c, h, n, config().outputGate);
}

}  // namespace mrnn::engine
