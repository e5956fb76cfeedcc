#pragma once

#include "engine/config/model_config.h"

namespace YAML {
class Emitter;
}

namespace mrnn::engine {

// Emits a model section with every key that applies, so that parseModelSection reads back
// the same ModelConfig (tested as a round trip).
void emitModelSection(YAML::Emitter& out, const ModelConfig& config);

}  // namespace mrnn::engine
