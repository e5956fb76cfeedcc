#include "engine/probing/probing_jobs.h"

#include <utility>

namespace mrnn::engine {

AnalysisJob::Work gateAnalysisWork(LanguageModel& model, const Vocabulary& vocabulary,
                                   std::string text, GateOptions options,
                                   std::shared_ptr<GateReport> result) {
  return [&model, &vocabulary, text = std::move(text), options,
          result = std::move(result)](JobContext& context) {
    *result = analyzeGates(model, vocabulary, text, options, &context);
  };
}

AnalysisJob::Work treeExpansionWork(LanguageModel& model, const Vocabulary& vocabulary,
                                    std::string context, TreeOptions options,
                                    std::shared_ptr<TreeResult> result) {
  return [&model, &vocabulary, context = std::move(context), options, result = std::move(result)](
             JobContext& job) { *result = expandTree(model, vocabulary, context, options, &job); };
}

}  // namespace mrnn::engine
