#pragma once

#include <functional>
#include <string>

#include "engine/interop/named_tensors.h"

namespace mrnn::engine {

// Reads the pickle inside a PyTorch file as torch.load(weights_only=True) does: dictionaries
// (OrderedDict too), lists, tuples, numbers, strings and tensors, and nothing else. A pickle
// that names any other callable (code to run) is refused with the name and its byte offset;
// nothing in it is ever executed.
class RestrictedUnpickler {
 public:
  // Gives the bytes of storage `key` ("data/<key>" of the archive) as a tensor of `dtype`.
  using StorageLoader =
      std::function<torch::Tensor(const std::string& key, torch::ScalarType dtype, int64_t numel)>;

  // `file` names the source in messages.
  RestrictedUnpickler(std::string file, StorageLoader storages);

  // The tensors of a state dict: the pickle's top-level dictionary, with nested dictionaries
  // flattened into dotted names ({"model": {"w": t}} gives "model.w"); entries that are
  // not tensors (an epoch number, a string) are skipped. Throws InteropError.
  NamedTensors stateDict(const std::string& pickle) const;

 private:
  std::string file_;
  StorageLoader storages_;
};

}  // namespace mrnn::engine
