#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen TmgruCell (tmgru_cell.h): m_z, m_r = xp_mz,mr * (W_mh_zr h); z, r = s(xp_z,r + V_z,r
// m_z,r); m_h = xp_mh * (W_mh_h (r * h)); j = tanh(xp_j + V_h m_h), then gruFinish().
class FrozenTmgruCell : public FrozenCell {
 public:
  FrozenTmgruCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 1; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wMhZr_, wMhH_, v_;
  AlignedFloats mzr_, rh_, mh_;
};

}  // namespace mrnn::engine
