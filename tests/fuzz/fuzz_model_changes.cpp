// Two model sections compared key by key (engine/config/model_changes.h), as a resume compares
// the model a checkpoint carries with the project's: the input is the two texts, split at its
// first "\n---\n" (all of it is both when there is none). Any text gives a list (its summary
// empty only when it is), never a crash, an exception or a walk through aliases without end.
#include <cstdlib>

#include "engine/config/model_changes.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = mrnn::fuzz::asText(data, size);
  const size_t split = text.find("\n---\n");
  const std::string before = split == std::string::npos ? text : text.substr(0, split);
  const std::string after = split == std::string::npos ? text : text.substr(split + 5);
  const auto changes = mrnn::engine::modelSectionChanges(before, after);
  const std::string summary = mrnn::engine::modelChangeSummary(before, after);
  if (changes.empty() != summary.empty()) std::abort();
  mrnn::engine::modelSectionChanges(before, before);
  return 0;
}
