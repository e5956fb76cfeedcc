#include "engine/probing/probing_jobs.h"

#include <utility>

namespace mrnn::engine {

AnalysisJob::Work gateAnalysisWork(LanguageModel& model, const Vocabulary& vocabulary,
                                   std::string text, GateOptions options,
                                   std::shared_ptr<GateReport> result) {
  return [&model, &vocabulary, text = std::move(text), options,
          result = std::move(result)](JobContext& context) {
    *result = analyzeGates(
        model, vocabulary, text, options,
        [&context](double fraction, const std::string& phase) { context.report(fraction, phase); });
  };
}

AnalysisJob::Work treeExpansionWork(LanguageModel& model, const Vocabulary& vocabulary,
                                    std::string context, TreeOptions options,
                                    std::shared_ptr<TreeResult> result) {
  return [&model, &vocabulary, context = std::move(context), options,
          result = std::move(result)](JobContext& job) {
    *result = expandTree(
        model, vocabulary, context, options,
        [&job](double fraction, const std::string& phase) { job.report(fraction, phase); });
  };
}

}  // namespace mrnn::engine
