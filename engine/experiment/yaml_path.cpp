#include "engine/experiment/yaml_path.h"

#include <yaml-cpp/yaml.h>

#include <vector>

#include "engine/config/model_config_parser.h"

namespace mrnn::engine {
namespace {

struct PathPart {
  std::string key;     // a mapping key, or empty for a list index
  int64_t index = -1;  // a list index
};

std::vector<PathPart> splitPath(const std::string& path) {
  std::vector<PathPart> parts;
  size_t at = 0;
  while (at < path.size()) {
    if (path[at] == '.') {
      ++at;
      continue;
    }
    if (path[at] == '[') {
      const size_t close = path.find(']', at);
      if (close == std::string::npos) throw YamlPathError("'" + path + "': a '[' without ']'");
      const std::string digits = path.substr(at + 1, close - at - 1);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
        throw YamlPathError("'" + path + "': [" + digits + "] is not a list index");
      }
      parts.push_back({"", std::stoll(digits)});
      at = close + 1;
      continue;
    }
    const size_t end = path.find_first_of(".[", at);
    parts.push_back({path.substr(at, end - at), -1});
    at = end == std::string::npos ? path.size() : end;
  }
  if (parts.empty()) throw YamlPathError("an empty key path");
  return parts;
}

std::string prefixOf(const std::vector<PathPart>& parts, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    if (parts[i].index >= 0) {
      out += "[" + std::to_string(parts[i].index) + "]";
    } else {
      out += (out.empty() ? "" : ".") + parts[i].key;
    }
  }
  return out;
}

}  // namespace

void setYamlPath(YAML::Node& root, const std::string& path, const YAML::Node& value) {
  const std::vector<PathPart> parts = splitPath(path);
  // yaml-cpp nodes are handles: assigning through `node` changes the tree.
  YAML::Node node = root;
  for (size_t i = 0; i < parts.size(); ++i) {
    const PathPart& part = parts[i];
    const bool last = i + 1 == parts.size();
    if (part.index >= 0) {
      if (!node.IsSequence() || static_cast<int64_t>(node.size()) <= part.index) {
        throw YamlPathError("'" + path + "': " + prefixOf(parts, i) + " has no item [" +
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
      throw YamlPathError("'" + path + "': " + prefixOf(parts, i) +
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
