#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen TmlstmCell (tmlstm_cell.h): m_g = xp_m,g * (W_mh,g h); pre_g = xp_g + V_g m_g for g in
// i f o j, then lstmFinish().
class FrozenTmlstmCell : public FrozenCell {
 public:
  FrozenTmlstmCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 2; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wMh_, v_;
  AlignedFloats m_;
};

}  // namespace mrnn::engine
