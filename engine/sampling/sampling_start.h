#pragma once

#include <torch/types.h>

#include "engine/models/language_model.h"
#include "engine/sampling/completion.h"

namespace mrnn::engine {

// Where generation continues from: the model state after the prime (and, when branching,
// the kept prefix), the log-probabilities of the next symbol [V] (float, contiguous), and
// the completion so far (empty unless branching).
struct SamplingStart {
  ModelState state;
  torch::Tensor next;
  Completion prefix;
};

}  // namespace mrnn::engine
