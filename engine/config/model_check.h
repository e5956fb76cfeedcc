#pragma once

#include <string>
#include <vector>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// A setting that cannot be built, with the key it concerns (relative to the model
// section, for example "layers[1].rank") and a reason a researcher can act on.
struct ModelProblem {
  int layer = -1;  // index into ModelConfig::layers, or -1 for input/output settings
  std::string key;
  std::string reason;
};

// Checks the settings that involve more than one key (tied sizes, Mogrifier rank
// against the widths it factorises, byte vocabulary). `vocab` is the vocabulary size
// when known, else 0. The composer marks blocks with these; the parser throws the first.
std::vector<ModelProblem> checkModel(const ModelConfig& config, int64_t vocab);

}  // namespace mrnn::engine
