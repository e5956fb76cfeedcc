#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen LstmCell (lstm_cell.h): [i f o j] = xp + W_h h, then lstmFinish().
class FrozenLstmCell : public FrozenCell {
 public:
  FrozenLstmCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 2; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  FrozenMatrix wH_;
};

}  // namespace mrnn::engine
