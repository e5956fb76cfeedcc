#include "engine/sampling/sampling_job.h"

#include <algorithm>

namespace mrnn::engine {

AnalysisJob::Work samplingWork(Sampler& sampler, SamplingOptions options,
                               std::vector<Completion>& results, SymbolCallback onSymbol) {
  return [&sampler, options = std::move(options), &results,
          onSymbol = std::move(onSymbol)](JobContext& context) {
    const int64_t streams = options.beamWidth > 0 ? options.beamWidth : options.completions;
    const double total = static_cast<double>(std::max<int64_t>(1, streams * options.maxLength));
    double done = 0.0;
    context.report(0.0, "priming");
    results = sampler.generate(options, [&](size_t completion, const GeneratedSymbol& symbol) {
      done += 1.0;
      // report() throws JobCancelledError once the job is cancelled, ending generation.
      context.report(std::min(1.0, done / total), "completion " + std::to_string(completion + 1));
      return onSymbol ? onSymbol(completion, symbol) : true;
    });
    context.report(1.0, "done");
  };
}

}  // namespace mrnn::engine
