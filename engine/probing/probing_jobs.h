#pragma once

#include <memory>
#include <string>

#include "engine/analysis/analysis_job.h"
#include "engine/probing/gate_analysis.h"
#include "engine/probing/hidden_state_tree.h"

namespace mrnn::engine {

// Work for an AnalysisJob (engine thread, progress events, cancellable between windows or
// batches). The result is written to *result when the work finishes; read it after wait().
// `model` and `vocabulary` must outlive the job and not be used elsewhere while it runs.
AnalysisJob::Work gateAnalysisWork(LanguageModel& model, const Vocabulary& vocabulary,
                                   std::string text, GateOptions options,
                                   std::shared_ptr<GateReport> result);

AnalysisJob::Work treeExpansionWork(LanguageModel& model, const Vocabulary& vocabulary,
                                    std::string context, TreeOptions options,
                                    std::shared_ptr<TreeResult> result);

}  // namespace mrnn::engine
