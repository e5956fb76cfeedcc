#pragma once

#include <vector>

#include "engine/analysis/analysis_job.h"
#include "engine/sampling/sampler.h"

namespace mrnn::engine {

// The work of an AnalysisJob that runs sampler.generate(options): progress after every
// symbol (the fraction of completions x maxLength done), cancellable at any symbol, each
// symbol passed on to `onSymbol` (called on the job's thread) when given. The completions
// land in `results`, to be read after the job's wait(); `sampler` and `results` must outlive
// the job.
AnalysisJob::Work samplingWork(Sampler& sampler, SamplingOptions options,
                               std::vector<Completion>& results, SymbolCallback onSymbol = {});

}  // namespace mrnn::engine
