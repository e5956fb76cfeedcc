#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen MlstmCell (mlstm_cell.h): m = xp_m * (W_mh h); [i f o j] = xp_x + W_m m, then
// lstmFinish().
class FrozenMlstmCell : public FrozenCell {
 public:
  FrozenMlstmCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 2; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wMh_, wM_;
  AlignedFloats m_;
};

}  // namespace mrnn::engine
