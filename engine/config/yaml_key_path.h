#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace mrnn::engine {

// A key path that cannot be read or followed ("model.layers[0" without its ']', a list index
// past the end). The message names the path and the reason.
class YamlPathError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One step into a YAML tree: a mapping key, or (index >= 0) a list item.
struct YamlKeyStep {
  std::string key;
  int64_t index = -1;

  bool isIndex() const { return index >= 0; }
  bool operator==(const YamlKeyStep& other) const {
    return key == other.key && index == other.index;
  }
};
using YamlKeyPath = std::vector<YamlKeyStep>;

// "model.layers[0].hidden_size" as its steps, as experiment axes and `mrnn project set`
// write keys. Throws YamlPathError for an empty path, an unclosed '[' or a non-numeric index.
YamlKeyPath parseYamlKeyPath(const std::string& path);
// The first `count` steps written back ("model.layers[0]"); all of them by default.
std::string formatYamlKeyPath(const YamlKeyPath& path, size_t count = SIZE_MAX);

}  // namespace mrnn::engine
