#include "engine/inference/frozen_weights.h"

#include <stdexcept>
#include <utility>

namespace mrnn::engine {

void FrozenWeights::add(const std::string& name, FrozenMatrix matrix) {
  matrices_[name] = std::move(matrix);
}

FrozenMatrix FrozenWeights::take(const std::string& name, int64_t rows, int64_t cols) {
  const auto found = matrices_.find(name);
  if (found == matrices_.end()) {
    throw std::invalid_argument("frozen copy: the cell has no parameter '" + name + "'");
  }
  if (found->second.rows * found->second.cols != rows * cols) {
    throw std::invalid_argument("frozen copy: parameter '" + name + "' has " +
                                std::to_string(found->second.rows * found->second.cols) +
                                " values, expected " + std::to_string(rows) + " x " +
                                std::to_string(cols));
  }
  FrozenMatrix matrix = std::move(found->second);
  matrices_.erase(found);
  matrix.rows = rows;
  matrix.cols = cols;
  return matrix;
}

AlignedFloats FrozenWeights::takeVector(const std::string& name, int64_t size) {
  return take(name, 1, size).values;
}

}  // namespace mrnn::engine
