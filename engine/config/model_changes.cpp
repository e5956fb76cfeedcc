#include "engine/config/model_changes.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <utility>

namespace mrnn::engine {
namespace {

// A model section is a few levels deep and a few thousand values at most (a hundred layers of
// a dozen keys); anything deeper or larger is not one. The bound on values also stops aliases
// that make a few hundred bytes of text a tree of billions of nodes.
constexpr int kMaxDepth = 16;
constexpr size_t kMaxValues = 10000;

using Leaves = std::vector<std::pair<std::string, std::string>>;

// Every value of `node` under its key path ("layers[0].hidden_size"), in document order; a
// whole sequence entry or map that one side lacks is found through its children's paths.
// False once the section proves larger than any model section (`visits` counts the nodes).
bool collect(const YAML::Node& node, const std::string& path, int depth, Leaves& leaves,
             size_t& visits) {
  if (++visits > kMaxValues) return false;
  if (depth > kMaxDepth) return true;
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const std::string key = entry.first.as<std::string>("?");
      if (!collect(entry.second, path.empty() ? key : path + "." + key, depth + 1, leaves,
                   visits)) {
        return false;
      }
    }
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) {
      if (!collect(node[i], path + "[" + std::to_string(i) + "]", depth + 1, leaves, visits)) {
        return false;
      }
    }
  } else {
    leaves.emplace_back(path, node.IsScalar() ? node.Scalar() : std::string("nothing"));
  }
  return true;
}

// False where the text is no YAML, or no model section's size.
bool leavesOf(const std::string& text, Leaves& leaves) {
  try {
    size_t visits = 0;
    return collect(YAML::Load(text), "", 0, leaves, visits);
  } catch (const YAML::Exception&) {
    return false;
  }
}

// "layers[1].hidden_size" -> "layers[1]": the entry a whole added or removed layer is named by.
std::string entryOf(const std::string& path) {
  const size_t bracket = path.find(']');
  return bracket == std::string::npos ? path : path.substr(0, bracket + 1);
}

bool hasEntry(const Leaves& leaves, const std::string& entry) {
  for (const auto& leaf : leaves) {
    if (leaf.first.compare(0, entry.size(), entry) == 0) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> modelSectionChanges(const std::string& before, const std::string& after) {
  Leaves old;
  Leaves now;
  if (!leavesOf(before, old) || !leavesOf(after, now)) return {"a model section cannot be read"};
  const std::map<std::string, std::string> oldValues(old.begin(), old.end());
  const std::map<std::string, std::string> newValues(now.begin(), now.end());
  std::vector<std::string> changes;
  std::map<std::string, bool> namedEntries;  // a layer added or removed is said once
  const auto wholeEntry = [&](const std::string& path, const Leaves& other, const char* what) {
    const std::string entry = entryOf(path);
    if (entry == path || hasEntry(other, entry)) return false;
    if (!namedEntries[entry]) changes.push_back(entry + " " + what);
    namedEntries[entry] = true;
    return true;
  };
  for (const auto& [path, value] : old) {
    const auto found = newValues.find(path);
    if (found == newValues.end()) {
      if (!wholeEntry(path, now, "removed"))
        changes.push_back(path + " removed (was " + value + ")");
    } else if (found->second != value) {
      changes.push_back(path + " from " + value + " to " + found->second);
    }
  }
  for (const auto& [path, value] : now) {
    if (oldValues.count(path) != 0) continue;
    if (!wholeEntry(path, old, "added")) changes.push_back(path + " added (" + value + ")");
  }
  return changes;
}

std::string modelChangeSummary(const std::string& before, const std::string& after, size_t shown) {
  const std::vector<std::string> changes = modelSectionChanges(before, after);
  std::string summary;
  for (size_t i = 0; i < changes.size() && i < shown; ++i) {
    summary += (i == 0 ? "" : ", ") + changes[i];
  }
  if (changes.size() > shown)
    summary += ", and " + std::to_string(changes.size() - shown) + " more";
  return summary;
}

}  // namespace mrnn::engine
