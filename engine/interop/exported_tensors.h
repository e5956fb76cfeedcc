#pragma once

#include "engine/interop/named_tensors.h"

namespace mrnn::engine {

class LanguageModel;

// The model's weights as PyTorch reads them: every parameter by its engine name with the
// module prefix ("input.embedding", "layer1.W_x", "output.W"; docs/cells.md), float32 on the
// CPU, weight normalisation folded in (a normalised weight is written as g * v / ||v|| under
// its own name, without "<name>_g"): the eval form, which is all a reader needs.
NamedTensors exportedTensors(LanguageModel& model);

}  // namespace mrnn::engine
