// A torch.save file read as a state dict (engine/interop/torch_file.h): the directory check,
// LibTorch's archive reader and the restricted unpickler together.
#include "engine/interop/torch_file.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    mrnn::engine::readTorchStateDict(mrnn::fuzz::asFile(data, size, "model.pt"));
  } catch (const mrnn::engine::InteropError&) {
  }
  return 0;
}
