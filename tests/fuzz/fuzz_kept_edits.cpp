// A file of a project's unsaved edits (engine/config/kept_edits.h), read as the workbench reads
// one when it opens the project: parsed, and its text compared with the file's digest.
#include "engine/config/config_error.h"
#include "engine/config/kept_edits.h"
#include "engine/io/fnv1a.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto kept = mrnn::engine::parseKeptEdits(mrnn::fuzz::asText(data, size), "kept.yaml");
    (void)mrnn::engine::fnv1a(kept.text);
  } catch (const mrnn::engine::ConfigError&) {
  }
  return 0;
}
