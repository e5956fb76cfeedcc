#pragma once

#include <torch/types.h>

#include <cstdint>
#include <map>
#include <optional>

namespace mrnn::engine {

class RecurrentCell;

// Forward-mode differentiation in progress on this thread (a curvature product's J v), at a
// LibTorch forward-AD level: while a TangentMode lives, a cell with a tangent window
// (RecurrentCell::tangentWindow) computes its window's tangent itself instead of the per-step
// loop's dual arithmetic, and no fused window runs (they have no forward derivative).
class TangentMode {
 public:
  explicit TangentMode(uint64_t level);
  ~TangentMode();
  TangentMode(const TangentMode&) = delete;
  TangentMode& operator=(const TangentMode&) = delete;

  // The level of the innermost TangentMode on this thread, if any.
  static std::optional<uint64_t> level();

  // What this pass's primal forward already computed (a curvature product's kept forward):
  // each cell's output h [T, B, H], by the cell. A tangent window takes its primal from here
  // instead of running the forward again. Cleared with the innermost TangentMode.
  static void setKnownOutputs(std::map<const RecurrentCell*, torch::Tensor> outputs);
  // The known output of `cell`, or an undefined tensor.
  static torch::Tensor knownOutput(const RecurrentCell* cell);

 private:
  std::optional<uint64_t> outer_;
  std::map<const RecurrentCell*, torch::Tensor> outerKnown_;
};

}  // namespace mrnn::engine
