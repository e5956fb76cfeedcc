#include "engine/config/yaml_key_path.h"

#include <algorithm>

namespace mrnn::engine {

YamlKeyPath parseYamlKeyPath(const std::string& path) {
  YamlKeyPath steps;
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
      if (digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos) {
        throw YamlPathError("'" + path + "': [" + digits + "] is not a list index");
      }
      steps.push_back({"", std::stoll(digits)});
      at = close + 1;
      continue;
    }
    const size_t end = path.find_first_of(".[", at);
    steps.push_back({path.substr(at, end - at), -1});
    at = end == std::string::npos ? path.size() : end;
  }
  if (steps.empty()) throw YamlPathError("an empty key path");
  return steps;
}

std::string formatYamlKeyPath(const YamlKeyPath& path, size_t count) {
  std::string out;
  for (size_t i = 0; i < std::min(count, path.size()); ++i) {
    if (path[i].isIndex()) {
      out += "[" + std::to_string(path[i].index) + "]";
    } else {
      out += (out.empty() ? "" : ".") + path[i].key;
    }
  }
  return out;
}

}  // namespace mrnn::engine
