#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen RnnCell (rnn_cell.h): h = tanh(xp + W_hh h), with xp = W_hx x + b.
class FrozenRnnCell : public FrozenCell {
 public:
  FrozenRnnCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 1; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wHh_;
};

}  // namespace mrnn::engine
