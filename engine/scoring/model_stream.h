#pragma once

#include <torch/types.h>

#include <cstdint>
#include <vector>

#include "engine/models/language_model.h"

namespace mrnn::engine {

class JobContext;

// Runs `ids` through the model from `state`, returning the log-probabilities [T, V] (float64,
// on the model's device) of the symbol after each (batch 1). The model is used in eval mode;
// the caller restores it.
torch::Tensor runStream(LanguageModel& model, const std::vector<int64_t>& ids, ModelState& state,
                        JobContext* job, int64_t window, double from, double to);

}  // namespace mrnn::engine
