#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/config/cell_type.h"

namespace YAML {
class Node;
}

namespace mrnn::engine {

// A key path that cannot be followed in a project's YAML: a list index past the end, a
// scalar where a mapping was expected. The message names the path and the reason.
class YamlPathError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Sets the value at a key path ("model.layers[0].hidden_size", "training.optimizer.lr") in a
// project's YAML tree. Missing mapping keys on the way are created; list items must exist.
void setYamlPath(YAML::Node& root, const std::string& path, const YAML::Node& value);

// Removes from layer `layer` the keys a `type` layer does not take (an m_size when a cells
// axis turns an mLSTM into an LSTM), so that the trial's project stays valid.
void dropKeysNotTakenBy(YAML::Node& root, int64_t layer, CellType type);

}  // namespace mrnn::engine
