#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "engine/inference/aligned_floats.h"

namespace mrnn::engine {

// A matrix (or, with one row, a vector) copied out of a model: row-major floats.
struct FrozenMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  AlignedFloats values;

  const float* data() const { return values.data(); }
};

// The parameters of one cell as plain floats, by parameter name (docs/cells.md). Recurrent
// weights hold their effective value (weight normalisation folded in), stacked blocks as
// [G * R, C]; vectors are one row. Frozen cells take what they need, checking each shape, so a
// renamed or reshaped parameter fails loudly when the copy is made rather than mid-sequence.
class FrozenWeights {
 public:
  void add(const std::string& name, FrozenMatrix matrix);
  bool has(const std::string& name) const { return matrices_.count(name) > 0; }
  // Moves the matrix out; throws std::invalid_argument when it is missing or another shape.
  FrozenMatrix take(const std::string& name, int64_t rows, int64_t cols);
  AlignedFloats takeVector(const std::string& name, int64_t size);

 private:
  std::map<std::string, FrozenMatrix> matrices_;
};

}  // namespace mrnn::engine
