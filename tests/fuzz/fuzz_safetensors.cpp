// A safetensors file (engine/interop/safetensors_file.h): its header and tensors.
#include "engine/interop/safetensors_file.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    mrnn::engine::readSafetensors(mrnn::fuzz::asFile(data, size, "model.safetensors"));
  } catch (const mrnn::engine::InteropError&) {
  }
  return 0;
}
