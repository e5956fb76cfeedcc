#include "engine/experiment/yaml_path.h"

#include <yaml-cpp/yaml.h>

#include <vector>

#include "engine/config/model_config_parser.h"
#include "engine/config/yaml_key_path.h"

namespace mrnn::engine {

void setYamlPath(YAML::Node& root, const std::string& path, const YAML::Node& value) {
  const YamlKeyPath parts = parseYamlKeyPath(path);
  // yaml-cpp nodes are handles: assigning through `node` changes the tree.
  YAML::Node node = root;
  for (size_t i = 0; i < parts.size(); ++i) {
    const YamlKeyStep& part = parts[i];
    const bool last = i + 1 == parts.size();
    if (part.index >= 0) {
      if (!node.IsSequence() || static_cast<int64_t>(node.size()) <= part.index) {
        throw YamlPathError("'" + path + "': " + formatYamlKeyPath(parts, i) + " has no item [" +
                            std::to_string(part.index) + "] in the base project");
      }
      YAML::Node item = node[static_cast<size_t>(part.index)];
      if (last) {
        node[static_cast<size_t>(part.index)] = value;
        return;
      }
      node.reset(item);
      continue;
    }
    if (!node.IsMap() && !node.IsNull()) {
      throw YamlPathError("'" + path + "': " + formatYamlKeyPath(parts, i) +
                          " is a value in the base project, not a section with keys");
    }
    if (last) {
      node[part.key] = value;
      return;
    }
    if (!node[part.key]) node[part.key] = YAML::Node(YAML::NodeType::Map);
    YAML::Node child = node[part.key];
    node.reset(child);
  }
}

void dropKeysNotTakenBy(YAML::Node& root, int64_t layer, CellType type) {
  YAML::Node layers = root["model"]["layers"];
  if (!layers.IsSequence() || layer < 0 || static_cast<int64_t>(layers.size()) <= layer) return;
  YAML::Node node = layers[static_cast<size_t>(layer)];
  if (!node.IsMap()) return;
  const std::vector<std::string> taken = layerKeysFor(type);
  std::vector<std::string> dropped;
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    bool keep = false;
    for (const auto& name : taken) keep = keep || name == key;
    if (!keep) dropped.push_back(key);
  }
  for (const auto& key : dropped) node.remove(key);
}

}  // namespace mrnn::engine
