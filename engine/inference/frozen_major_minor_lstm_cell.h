#pragma once

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen MajorMinorLstmCell (major_minor_lstm_cell.h): two independent LSTMs side by side,
// [h_major, h_minor]; xp holds both input projections (the minor one from the embedding or the
// layer below).
class FrozenMajorMinorLstmCell : public FrozenCell {
 public:
  FrozenMajorMinorLstmCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 2; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  int64_t major_, minor_;
  FrozenMatrix wHMajor_, wHMinor_;
};

}  // namespace mrnn::engine
