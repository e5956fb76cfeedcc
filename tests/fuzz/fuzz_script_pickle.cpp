// The walk of a LibTorch archive's pickle before LibTorch reads it (engine/io/script_pickles.h):
// any bytes give a problem in words or none, in memory and time in proportion to the input.
// Records "archive/data/<one or two characters>" hold 1 MB each, so that storages resolve.
#include <optional>

#include "engine/io/script_pickles.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string pickle = mrnn::fuzz::asText(data, size);
  mrnn::engine::scriptPickleProblem(
      pickle, "archive/data/", [](const std::string& name) -> std::optional<uint64_t> {
        if (name.size() <= 15 && name.size() > 13 && name.rfind("archive/data/", 0) == 0)
          return uint64_t{1} << 20;
        return std::nullopt;
      });
  return 0;
}
