#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen GruCell (gru_cell.h): z, r = s(xp_zr + W_zr h); j = tanh(xp_j + W_h (r * h)), or
// with reset_after j = tanh(xp_j + r * (W_h h + b_hh)); then gruFinish().
class FrozenGruCell : public FrozenCell {
 public:
  FrozenGruCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 1; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wZr_, wH_;
  bool resetAfter_ = false;
  AlignedFloats bHh_;  // reset_after only
  AlignedFloats rh_;
};

}  // namespace mrnn::engine
