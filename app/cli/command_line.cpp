#include "command_line.h"

namespace mrnn::app {

CommandLine::CommandLine(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.rfind("--", 0) == 0 && word.size() > 2) {
      const auto equals = word.find('=');
      if (equals != std::string::npos) {
        options_[word.substr(2, equals - 2)] = word.substr(equals + 1);
      } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
        options_[word.substr(2)] = argv[++i];
      } else {
        options_[word.substr(2)] = "";
      }
    } else {
      positional_.push_back(word);
    }
  }
}

std::string CommandLine::value(const std::string& option, const std::string& fallback) const {
  const auto it = options_.find(option);
  return it == options_.end() ? fallback : it->second;
}

std::vector<std::string> CommandLine::unknownOptions(const std::vector<std::string>& known) const {
  std::vector<std::string> unknown;
  for (const auto& [name, value] : options_) {
    bool found = false;
    for (const auto& candidate : known) found = found || candidate == name;
    if (!found) unknown.push_back("--" + name);
  }
  return unknown;
}

}  // namespace mrnn::app
