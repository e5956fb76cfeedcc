#pragma once

#include <cstdint>

#include "engine/config/model_config.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// The recurrent part of one zoo cell, for one stream (batch 1) in eval mode, on raw floats:
// the frozen counterpart of RecurrentCell::recur() (engine/models), with the same equations
// (docs/cells.md) and the same order of operations where that decides rounding. The
// input-only part arrives already projected (SingleStreamModel folds it into per-symbol
// tables), and every buffer is allocated in the constructor, so step() allocates nothing.
class FrozenCell {
 public:
  FrozenCell(const LayerConfig& config, int64_t inputSize, int64_t projectedSize);
  virtual ~FrozenCell() = default;
  FrozenCell(const FrozenCell&) = delete;
  FrozenCell& operator=(const FrozenCell&) = delete;

  const LayerConfig& config() const { return config_; }
  int64_t inputSize() const { return inputSize_; }
  int64_t hiddenSize() const { return config_.hiddenSize; }
  // K: the width of the input projection step() reads (RecurrentCell::projectInputs()).
  int64_t projectedSize() const { return projectedSize_; }
  // 1 (h) or 2 (h, then the memory c), as RecurrentCell::statePartCount().
  virtual int statePartCount() const = 0;

  // One step. xp: this step's input projection [K], used as scratch (its contents are lost);
  // h [H]: h_{t-1} in, h_t out; c [H]: the memory, in and out (null for one-part cells).
  // run: how the matrix-vector products run (threads, row order).
  virtual void step(float* xp, float* h, float* c, const GemvOptions& run) = 0;

 private:
  LayerConfig config_;
  int64_t inputSize_;
  int64_t projectedSize_;
};

}  // namespace mrnn::engine
