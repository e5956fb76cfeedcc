#pragma once

#include <cstdint>
#include <string>

#include "engine/training/metrics.h"

namespace mrnn::engine {
class JobContext;
}

namespace mrnn::widgets {

struct RunEvaluation {
  std::string checkpoint;  // the file that was scored
  engine::LossFigures figures;
};

// Scores run `runId`'s best checkpoint (else its latest, as `mrnn eval --run` picks) on the
// test split, statically, with the evaluation settings (batch, bptt) of the config the run
// stored; its data paths are relative to `projectFolder`. The result is recorded in the run
// database the way the trainer records a finished run's test figure (the run's test result
// and a test/bpc, test/bpw metric point at its last step). Runs on the calling thread
// (a BackgroundJob's engine thread), reporting progress and honouring cancel through
// `context`; throws with the reason in words (no checkpoint, corpus missing, another model).
RunEvaluation evaluateRunOnTest(const std::string& projectFolder, int64_t runId,
                                engine::JobContext& context);

}  // namespace mrnn::widgets
