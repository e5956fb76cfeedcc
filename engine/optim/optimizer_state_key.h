#pragma once

// Internal to engine/optim: the key of a parameter's entry in Optimizer::state().

#include <torch/optim/optimizer.h>

#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace mrnn::engine {

using OptimizerStateKey =
    typename std::decay_t<decltype(std::declval<torch::optim::Optimizer&>().state())>::key_type;

// LibTorch 1.x keys the state by the parameter's TensorImpl address written as text (as
// c10::guts::to_string does), 2.x by the address itself; this gives the key either way.
template <typename Key = OptimizerStateKey>
Key optimizerStateKey(const torch::Tensor& parameter) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream out;
    out << static_cast<const void*>(parameter.unsafeGetTensorImpl());
    return out.str();
  } else {
    return parameter.unsafeGetTensorImpl();
  }
}

}  // namespace mrnn::engine
