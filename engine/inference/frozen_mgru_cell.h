#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen MgruCell (mgru_cell.h): m = xp_m * (W_mh h); z = s(xp_z + V_z m), r = s(xp_r + V_r m);
// j = tanh(xp_j + V_h (r * m)), then gruFinish().
class FrozenMgruCell : public FrozenCell {
 public:
  FrozenMgruCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 1; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wMh_, vZ_, vR_, vH_;
  AlignedFloats m_, rm_;
};

}  // namespace mrnn::engine
