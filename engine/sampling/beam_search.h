#pragma once

#include <vector>

#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"
#include "engine/sampling/completion_builder.h"
#include "engine/sampling/sampling_options.h"
#include "engine/sampling/sampling_start.h"

namespace mrnn::engine {

// Beam search: keeps the options.beamWidth most probable continuations (by total
// log-probability under the model), advancing all of them as one batch per step; a beam
// that produces a stop string is finished. Returns the best beamWidth finished beams, most
// probable first.
class BeamSearch {
 public:
  BeamSearch(LanguageModel& model, const Vocabulary& vocabulary, const SamplingOptions& options,
             const CompletionBuilder& builder);

  std::vector<Completion> run(const SamplingStart& start);

 private:
  GeneratedSymbol makeSymbol(const Completion& parent, const float* logp, int64_t id);

  LanguageModel& model_;
  const Vocabulary& vocabulary_;
  const SamplingOptions& options_;
  const CompletionBuilder& builder_;
  std::vector<int64_t> order_;
};

}  // namespace mrnn::engine
