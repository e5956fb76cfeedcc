// An experiment file (engine/experiment/experiment_spec.h), parsed and checked.
#include "engine/config/config_error.h"
#include "engine/experiment/experiment_spec.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    mrnn::engine::parseExperiment(mrnn::fuzz::asText(data, size), "experiments/fuzz.yaml");
  } catch (const mrnn::engine::ConfigError&) {
  }
  return 0;
}
