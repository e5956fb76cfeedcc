#pragma once

#include <cstdint>
#include <string>

#include "engine/config/cell_type.h"
#include "engine/config/yaml_key_path.h"

namespace YAML {
class Node;
}

namespace mrnn::engine {

// Sets the value at a key path (YamlPathError when it cannot be followed)
// ("model.layers[0].hidden_size", "training.optimizer.lr") in a project's YAML tree. Missing
// mapping keys on the way are created; list items must exist.
void setYamlPath(YAML::Node& root, const std::string& path, const YAML::Node& value);

// Removes from layer `layer` the keys a `type` layer does not take (an m_size when a cells
// axis turns an mLSTM into an LSTM), so that the trial's project stays valid.
void dropKeysNotTakenBy(YAML::Node& root, int64_t layer, CellType type);

}  // namespace mrnn::engine
