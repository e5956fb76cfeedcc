#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen MilstmCell (milstm_cell.h): pre = alpha * xp * (W_h h) + beta1 * (W_h h) + beta2 * xp
// + b with xp = W_x x, then lstmFinish().
class FrozenMilstmCell : public FrozenCell {
 public:
  FrozenMilstmCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 2; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wH_;
  AlignedFloats b_, alpha_, beta1_, beta2_, uh_;
};

}  // namespace mrnn::engine
