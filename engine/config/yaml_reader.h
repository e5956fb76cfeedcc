#pragma once

// Internal to engine/config: typed, located reads from yaml-cpp nodes. Every failure is a
// ConfigError naming the file, the line and column of the offending node and its key path.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/config/config_error.h"

namespace mrnn::engine {

// A number as a message shows it ("0.001", "1e+06"): six significant digits.
std::string formatNumber(double value);

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key,
                         const std::string& message) const;
  [[noreturn]] void failAtKey(const std::string& key, const std::string& message) const;

  // The node must be a mapping whose keys are all in `allowed`.
  void expectMap(const YAML::Node& node, const std::string& key,
                 const std::vector<std::string>& allowed);
  // Fails at the second occurrence of a key repeated in the mapping (expectMap checks it).
  void expectUniqueKeys(const YAML::Node& node, const std::string& key) const;

  int64_t integer(const YAML::Node& map, const std::string& path, const std::string& name,
                  int64_t fallback, int64_t min, int64_t max);
  double number(const YAML::Node& map, const std::string& path, const std::string& name,
                double fallback, double min, double max, bool maxInclusive = true);
  bool boolean(const YAML::Node& map, const std::string& path, const std::string& name,
               bool fallback);
  std::string text(const YAML::Node& map, const std::string& path, const std::string& name,
                   const std::string& fallback);
  std::string choice(const YAML::Node& map, const std::string& path, const std::string& name,
                     const std::string& fallback, const std::vector<std::string>& options);

  // Remember where a key stood, so that later cross-key checks can point at it.
  void remember(const std::string& key, const YAML::Node& node);

 private:
  YAML::Node scalar(const YAML::Node& map, const std::string& key, const std::string& name,
                    const std::string& expected);

  std::string file_;
  std::map<std::string, YAML::Mark> marks_;
};

std::string joinKey(const std::string& path, const std::string& name);

// Parses YAML text; a syntax error or a key repeated in a mapping (block or flow) throws
// ConfigError naming the file, line and column.
YAML::Node loadYamlText(const std::string& text, const std::string& file);

// Throws ConfigError at the second occurrence of any key repeated in any mapping of `root`,
// and at a key that is a list or a mapping.
void rejectRepeatedKeys(const YAML::Node& root, const std::string& file);

}  // namespace mrnn::engine
