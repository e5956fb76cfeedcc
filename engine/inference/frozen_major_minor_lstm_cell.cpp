#include "engine/inference/frozen_major_minor_lstm_cell.h"

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// xp: [major pre-activations (4 major), minor pre-activations (4 minor)]; h and c are
// [major, minor] as in MajorMinorLstmCell.
FrozenMajorMinorLstmCell::FrozenMajorMinorLstmCell(const LayerConfig& config, int64_t inputSize,
                                                   FrozenWeights& weights)
    : FrozenCell(config, inputSize, 4 * config.hiddenSize),
      major_(config.majorSize()),
      minor_(config.minorSize()) {
  wHMajor_ = weights.take("W_h_major", 4 * major_, major_);
  if (minor_ > 0) wHMinor_ = weights.take("W_h_minor", 4 * minor_, minor_);
}

void FrozenMajorMinorLstmCell::step(float* xp, float* h, float* c, const GemvOptions& run) {
  // Both products read h_{t-1} before either LSTM overwrites its half of h.
  gemv(wHMajor_.data(), 4 * major_, major_, h, xp, /*accumulate=*/true, run);
  if (minor_ > 0) {
    gemv(wHMinor_.data(), 4 * minor_, minor_, h + major_, xp + 4 * major_, true, run);
  }
  lstmFinish(xp, c, h, major_, config().outputGate);
  if (minor_ > 0) {
    lstmFinish(xp + 4 * major_, c + major_, h + major_, minor_, config().outputGate);
  }
}

}  // namespace mrnn::engine
