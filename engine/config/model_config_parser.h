#pragma once

#include <string>
#include <vector>

#include "engine/config/model_config.h"

namespace YAML {
class Node;
}

namespace mrnn::engine {

class YamlReader;

// Reads the `model:` section of a project file. Unknown keys, keys that do not apply to
// a layer's cell type, wrong types, out-of-range values and impossible combinations are
// all rejected with a ConfigError naming file, line, column and key (docs/model-config.md).
// With `checkCombinations` false, a model whose settings only clash with each other (checkModel:
// tied embeddings of the wrong width, a rank too large) is returned for the caller to show,
// as the composer shows the same model built with its controls.
ModelConfig parseModelSection(const YAML::Node& node, YamlReader& reader,
                              const std::string& path = "model", bool checkCombinations = true);

// The keys a layer of cell type `type` takes (every layer takes type, hidden_size,
// weight_drop and weight_norm); any other key is an error.
std::vector<std::string> layerKeysFor(CellType type);

// Parses YAML text that holds a model section's body (what the composer's text view edits).
ModelConfig parseModelText(const std::string& text, const std::string& file = "");

}  // namespace mrnn::engine
