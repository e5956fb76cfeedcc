#include "engine/inference/frozen_lstm_cell.h"

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: W_x x + b [4H].
FrozenLstmCell::FrozenLstmCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights)
    : FrozenCell(config, inputSize, 4 * config.hiddenSize) {
  const int64_t h = config.hiddenSize;
  wH_ = weights.take("W_h", 4 * h, h);
}

void FrozenLstmCell::step(float* xp, float* h, float* c, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  gemv(wH_.data(), 4 * n, n, h, xp, /*accumulate=*/true, run);
  lstmFinish(xp, c, h, n, config().outputGate);
}

}  // namespace mrnn::engine
