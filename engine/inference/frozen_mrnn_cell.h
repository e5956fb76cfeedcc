#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen MrnnCell (mrnn_cell.h): m = xp_m * (W_mh h); h = tanh(xp_h + W_hm m).
class FrozenMrnnCell : public FrozenCell {
 public:
  FrozenMrnnCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 1; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wMh_, wHm_;
  AlignedFloats m_;
};

}  // namespace mrnn::engine
