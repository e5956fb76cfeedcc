#pragma once

#include <torch/types.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mrnn::engine {

// Tensors by name, in the order a file lists them: what a state dict or a safetensors file
// holds. CPU tensors, contiguous.
using NamedTensors = std::vector<std::pair<std::string, torch::Tensor>>;

// A model file from or for another framework that cannot be read, written or placed: the
// message names the file and the key, byte or shape at fault.
class InteropError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The tensor named `name`, or nullptr.
inline const torch::Tensor* findTensor(const NamedTensors& tensors, const std::string& name) {
  for (const auto& [key, value] : tensors) {
    if (key == name) return &value;
  }
  return nullptr;
}

// "[4, 256]" for messages.
std::string shapeText(const torch::IntArrayRef& shape);

}  // namespace mrnn::engine
