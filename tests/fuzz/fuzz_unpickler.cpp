// The restricted unpickler (engine/interop/restricted_unpickler.h) on any bytes: a pickle is
// refused in words (InteropError) or read; never a crash, a hang or unbounded memory.
#include <torch/torch.h>

#include "engine/interop/restricted_unpickler.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Storages of at most a million elements: what a real archive's directory would have to hold.
  const mrnn::engine::RestrictedUnpickler unpickler(
      "fuzz.pt", [](const std::string&, torch::ScalarType type, int64_t numel) {
        if (numel > (1 << 20)) throw mrnn::engine::InteropError("a storage too large to fuzz");
        return torch::zeros({numel}, torch::TensorOptions().dtype(type));
      });
  try {
    unpickler.stateDict(mrnn::fuzz::asText(data, size));
  } catch (const mrnn::engine::InteropError&) {
  }
  return 0;
}
