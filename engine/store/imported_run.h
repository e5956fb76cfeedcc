#pragma once

#include <string>

#include "engine/store/run_store.h"

namespace mrnn::engine {

// A model brought in from a file (`mrnn import`, the workbench's Import PyTorch Model) is
// recorded as a finished run that took no step, its reason "imported from <absolute path>".
// The record is the only mark it carries, so everything that shows runs asks here.
inline constexpr const char* kImportedReasonPrefix = "imported from ";

// Whether `run` is a model imported from a file rather than trained. A run copied from
// another project's database (RunStore::importRun) is a trained run and is not one.
bool isImportedRun(const RunRecord& run);

// The file an imported run came from, as its record names it; empty for any other run.
std::string importedRunSource(const RunRecord& run);

}  // namespace mrnn::engine
