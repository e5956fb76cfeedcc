#pragma once

#include <vector>

#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"

namespace mrnn::engine {

// The frozen MogrifierCell (mogrifier_cell.h): r rounds of mutual gating of x and h (full or
// low rank, zigzag or not), then the LSTM step on the gated pair. Its input projection is the
// identity, so xp is x itself, gated in place.
class FrozenMogrifierCell : public FrozenCell {
 public:
  FrozenMogrifierCell(const LayerConfig& config, int64_t inputSize, FrozenWeights& weights);

  int statePartCount() const override { return 2; }
  void step(float* xp, float* h, float* c, const GemvOptions& run) override;

 private:
  // Q^i or R^i: full, or left * right when low rank (right empty when full).
  struct Round {
    FrozenMatrix full;
    FrozenMatrix left;
    FrozenMatrix right;
  };
  // out = matrix * source, through `lowRank` [k] when factorised.
  void apply(const Round& round, const float* source, float* out, const GemvOptions& run);

  std::vector<Round> rounds_;
  FrozenMatrix wX_, wH_;
  AlignedFloats b_;
  AlignedFloats x0_, h_, gate_, lowRank_, pre_;
};

}  // namespace mrnn::engine
