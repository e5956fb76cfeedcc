#pragma once

#include <cstdint>
#include <string>

#include "engine/training/metrics.h"

namespace mrnn::engine {

class JobContext;
class RunStore;

struct RunTestEvaluation {
  std::string checkpoint;  // the file that was scored
  LossFigures figures;
};

// Scores run `runId`'s best checkpoint (else its latest, as `mrnn eval --run` picks) on the
// test split, statically, with the evaluation settings (batch, bptt) of the config the run
// stored; its data paths are relative to `projectFolder`. The figure is recorded as the
// trainer records a finished run's (recordTestResult, at the run's last step). Runs on the
// calling thread, reporting to `job` (may be null) and stopping when it is cancelled; throws
// with the reason in words (no checkpoint, corpus missing, another model, run being written).
// `checkpoint`, when given, is the one of the run's checkpoints to score instead (the latest
// when the best cannot be read, say).
RunTestEvaluation evaluateRunOnTest(const std::string& projectFolder, int64_t runId,
                                    JobContext* job = nullptr,
                                    const std::string& checkpoint = std::string());

// The one record of a test figure: the run's test result, and test/bpc (test/bpw for word
// counts) metric points at `step`, `epoch`, `wallSeconds`.
void recordTestResult(RunStore& store, int64_t runId, const LossFigures& figures, int64_t step,
                      double epoch, double wallSeconds);

}  // namespace mrnn::engine
