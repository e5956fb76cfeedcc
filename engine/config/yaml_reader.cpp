#include "engine/config/yaml_reader.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace mrnn::engine {
namespace {

std::string describeOptions(const std::vector<std::string>& options) {
  std::string out;
  for (size_t i = 0; i < options.size(); ++i) {
    if (i > 0) out += (i + 1 == options.size()) ? " or " : ", ";
    out += "'" + options[i] + "'";
  }
  return out;
}

}  // namespace

std::string formatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

YAML::Node loadYamlText(const std::string& text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& error) {
    std::string message = "YAML syntax error: " + error.msg;
    // The usual cause in experiment files: `{model.layers[0].type: lstm}`, where "[" opens a
    // list inside the mapping.
    std::istringstream lines(text);
    std::string line;
    for (int n = 0; n <= error.mark.line && std::getline(lines, line); ++n) {
    }
    if (error.msg.find("flow") != std::string::npos && line.find('{') != std::string::npos &&
        line.find('[') != std::string::npos) {
      message +=
          " (a key path with [i] cannot stand inside {...}: write the mapping one key "
          "per line, or quote the key)";
    }
    throw ConfigError(file, error.mark.line + 1, error.mark.column + 1, "", message);
  }
  rejectRepeatedKeys(root, file);
  return root;
}

void rejectRepeatedKeys(const YAML::Node& root, const std::string& file) {
  // yaml-cpp keeps both entries of a repeated key and a lookup finds the first, so a second
  // value would vanish silently, in block and flow mappings alike. Walked with a stack and a
  // bound: aliases can make a small text a vast (or circular) tree. Keys that are not names
  // are refused here too.
  // The depth bounds the key paths kept on the stack too: an alias inside its own anchor
  // nests without end, and a path per level grew the stack's strings past gigabytes.
  constexpr size_t kMaxVisits = 1'000'000;
  constexpr size_t kMaxDepth = 200;
  struct Pending {
    YAML::Node node;
    std::string path;
    size_t depth;
  };
  std::vector<Pending> stack;
  stack.push_back({root, "", 0});
  for (size_t visits = 0; !stack.empty() && visits < kMaxVisits; ++visits) {
    const YAML::Node node = stack.back().node;
    const std::string path = stack.back().path;
    const size_t depth = stack.back().depth;
    stack.pop_back();
    if (depth > kMaxDepth) {
      const YAML::Mark mark = node.Mark();
      throw ConfigError(file, mark.is_null() ? 0 : mark.line + 1,
                        mark.is_null() ? 0 : mark.column + 1, "",
                        "the text nests more than " + std::to_string(kMaxDepth) +
                            " levels deep (an alias inside its own anchor?)");
    }
    if (node.IsSequence()) {
      for (size_t i = 0; i < node.size(); ++i) {
        stack.push_back({node[i], path + "[" + std::to_string(i) + "]", depth + 1});
      }
      continue;
    }
    if (!node.IsMap()) continue;
    std::map<std::string, int> seen;
    for (const auto& entry : node) {
      const YAML::Mark mark = entry.first.Mark();
      // Every reader takes a key as a name: a list or a mapping as a key is none.
      if (!entry.first.IsScalar()) {
        throw ConfigError(file, mark.is_null() ? 0 : mark.line + 1,
                          mark.is_null() ? 0 : mark.column + 1, path,
                          "a key here is a list or a mapping; keys are names");
      }
      const std::string name = entry.first.Scalar();
      const auto first = seen.emplace(name, mark.line);
      if (!first.second) {
        throw ConfigError(file, mark.line + 1, mark.column + 1, joinKey(path, name),
                          "appears twice in this mapping (first at line " +
                              std::to_string(first.first->second + 1) + "); keep one");
      }
      stack.push_back({entry.second, joinKey(path, name), depth + 1});
    }
  }
}

std::string joinKey(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

void YamlReader::fail(const YAML::Node& at, const std::string& key,
                      const std::string& message) const {
  const YAML::Mark mark = at.Mark();
  const int line = mark.is_null() ? 0 : mark.line + 1;
  const int column = mark.is_null() ? 0 : mark.column + 1;
  throw ConfigError(file_, line, column, key, message);
}

void YamlReader::failAtKey(const std::string& key, const std::string& message) const {
  const auto it = marks_.find(key);
  if (it == marks_.end() || it->second.is_null()) throw ConfigError(file_, 0, 0, key, message);
  throw ConfigError(file_, it->second.line + 1, it->second.column + 1, key, message);
}

void YamlReader::remember(const std::string& key, const YAML::Node& node) {
  marks_[key] = node.Mark();
}

void YamlReader::expectMap(const YAML::Node& node, const std::string& key,
                           const std::vector<std::string>& allowed) {
  if (!node.IsMap()) fail(node, key, "expected a mapping of keys to values");
  remember(key, node);
  expectUniqueKeys(node, key);
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>();
    bool known = false;
    for (const auto& candidate : allowed) known = known || candidate == name;
    if (!known) {
      fail(entry.first, joinKey(key, name),
           "unknown key; expected one of " + describeOptions(allowed));
    }
    remember(joinKey(key, name), entry.first);
  }
}

void YamlReader::expectUniqueKeys(const YAML::Node& node, const std::string& key) const {
  // yaml-cpp keeps both entries and a lookup finds the first, so a repeated key would
  // silently lose the second value.
  std::vector<std::pair<std::string, int>> seen;
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>();
    for (const auto& [earlier, line] : seen) {
      if (earlier == name) {
        fail(entry.first, joinKey(key, name),
             "appears twice in this mapping (first at line " + std::to_string(line + 1) +
                 "); keep one");
      }
    }
    seen.emplace_back(name, entry.first.Mark().line);
  }
}

YAML::Node YamlReader::scalar(const YAML::Node& map, const std::string& key,
                              const std::string& name, const std::string& expected) {
  const YAML::Node value = map[name];
  if (!value.IsScalar()) fail(value, key, "expected " + expected);
  return value;
}

int64_t YamlReader::integer(const YAML::Node& map, const std::string& path, const std::string& name,
                            int64_t fallback, int64_t min, int64_t max) {
  if (!map[name]) return fallback;
  const std::string key = joinKey(path, name);
  const YAML::Node node = scalar(map, key, name, "an integer");
  const std::string raw = node.Scalar();
  int64_t value = 0;
  try {
    size_t used = 0;
    value = std::stoll(raw, &used);
    if (used != raw.size()) throw std::invalid_argument(raw);
  } catch (const std::exception&) {
    fail(node, key, "expected an integer, got '" + raw + "'");
  }
  if (value < min || value > max) {
    fail(node, key,
         raw + " is out of range; expected " + std::to_string(min) + " to " + std::to_string(max));
  }
  return value;
}

double YamlReader::number(const YAML::Node& map, const std::string& path, const std::string& name,
                          double fallback, double min, double max, bool maxInclusive) {
  if (!map[name]) return fallback;
  const std::string key = joinKey(path, name);
  const YAML::Node node = scalar(map, key, name, "a number");
  const std::string raw = node.Scalar();
  // strtod, not stod: a value too small for a double (1e-400) reads as the nearest one,
  // and one too large is out of range, rather than "not a number".
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(raw.c_str(), &end);
  if (raw.empty() || std::isspace(static_cast<unsigned char>(raw[0])) ||
      end != raw.c_str() + raw.size()) {
    fail(node, key, "expected a number, got '" + raw + "'");
  }
  const bool overflow = errno == ERANGE && std::fabs(value) > 1.0;
  const bool aboveMax = maxInclusive ? value > max : value >= max;
  if (overflow || !std::isfinite(value) || value < min || aboveMax) {
    fail(node, key,
         raw + " is out of range; expected " + formatNumber(min) + " to " + formatNumber(max) +
             (maxInclusive ? "" : " (exclusive)"));
  }
  return value;
}

bool YamlReader::boolean(const YAML::Node& map, const std::string& path, const std::string& name,
                         bool fallback) {
  if (!map[name]) return fallback;
  const std::string key = joinKey(path, name);
  const YAML::Node node = scalar(map, key, name, "true or false");
  const std::string raw = node.Scalar();
  if (raw == "true" || raw == "yes" || raw == "on") return true;
  if (raw == "false" || raw == "no" || raw == "off") return false;
  fail(node, key, "expected true or false, got '" + raw + "'");
}

std::string YamlReader::text(const YAML::Node& map, const std::string& path,
                             const std::string& name, const std::string& fallback) {
  if (!map[name]) return fallback;
  return scalar(map, joinKey(path, name), name, "a text value").Scalar();
}

std::string YamlReader::choice(const YAML::Node& map, const std::string& path,
                               const std::string& name, const std::string& fallback,
                               const std::vector<std::string>& options) {
  if (!map[name]) return fallback;
  const std::string key = joinKey(path, name);
  const YAML::Node node = scalar(map, key, name, "one of " + describeOptions(options));
  const std::string raw = node.Scalar();
  for (const auto& option : options) {
    if (raw == option) return raw;
  }
  fail(node, key, "'" + raw + "' is not allowed; expected " + describeOptions(options));
}

}  // namespace mrnn::engine
