#pragma once

#include <cstdint>
#include <string>

#include "engine/interop/imported_model.h"

namespace mrnn::engine {

struct ImportedRun {
  int64_t runId = 0;
  std::string name;
  std::string checkpoint;
  int64_t parameters = 0;
};

// Makes `model` a finished run of the project in `projectFile`: a checkpoint the sampler and
// every analysis open, and a run record (no curves) whose note names `sourceFile`. `name`
// empty: "imported <file name>". Every weight is checked against the model it builds (names
// and shapes) before anything is written; a failure leaves the project as it was. Throws
// InteropError.
ImportedRun importAsRun(const std::string& projectFile, const ImportedModel& model,
                        const std::string& sourceFile, const std::string& name = "");

}  // namespace mrnn::engine
