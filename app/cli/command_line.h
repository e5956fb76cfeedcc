#pragma once

#include <map>
#include <string>
#include <vector>

namespace mrnn::app {

// A small argv reader: positional words and "--name value" / "--flag" options. Unknown
// options are reported by the command that reads them (it knows which it accepts).
class CommandLine {
 public:
  CommandLine(int argc, char** argv);

  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& option) const { return options_.count(option) > 0; }
  std::string value(const std::string& option, const std::string& fallback = "") const;
  // Names of options not in `known`, for a clear usage error.
  std::vector<std::string> unknownOptions(const std::vector<std::string>& known) const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::string> options_;
};

}  // namespace mrnn::app
