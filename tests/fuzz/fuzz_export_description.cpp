// The description beside an exported model (engine/interop/exported_model_description.h).
#include "engine/interop/exported_model_description.h"
#include "engine/interop/named_tensors.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    mrnn::engine::readExportDescription(mrnn::fuzz::asText(data, size), "model.pt.json");
  } catch (const mrnn::engine::InteropError&) {
  }
  return 0;
}
