#include "engine/sampling/sampling_job.h"

namespace mrnn::engine {

AnalysisJob::Work samplingWork(Sampler& sampler, SamplingOptions options,
                               std::vector<Completion>& results, SymbolCallback onSymbol) {
  return [&sampler, options = std::move(options), &results,
          onSymbol = std::move(onSymbol)](JobContext& context) {
    context.report(0.0, "priming");
    results = sampler.generate(options, onSymbol, &context);
    context.report(1.0, "done");  // throws JobCancelledError when it was cancelled
  };
}

}  // namespace mrnn::engine
