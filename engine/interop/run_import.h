#pragma once

#include <cstdint>
#include <string>

#include "engine/interop/import_request.h"

namespace mrnn::engine {

struct ImportedModel;  // engine/interop/imported_model.h

struct ImportedRun {
  int64_t runId = 0;
  std::string name;
  std::string checkpoint;
  int64_t parameters = 0;
  std::string description;  // the model read, for notes ("PyTorch LSTM, 2 layers of 200, ...")
};

// Makes `model` a finished run of the project in `projectFile`: a checkpoint the sampler and
// every analysis open, and a run record (no curves) whose note names `sourceFile`. `name`
// empty: "imported <file name>". Every weight is checked against the model it builds (names
// and shapes) before anything is written; a failure leaves the project as it was. Throws
// InteropError.
ImportedRun importAsRun(const std::string& projectFile, const ImportedModel& model,
                        const std::string& sourceFile, const std::string& name = "");

// readModelFile (imported_model.h), then importAsRun: the workbench's import in one call.
ImportedRun importModelFile(const ImportRequest& request, const std::string& projectFile,
                            const std::string& name = "");

}  // namespace mrnn::engine
