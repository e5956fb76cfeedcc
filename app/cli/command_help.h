#pragma once

#include <string>
#include <vector>

namespace mrnn::app {

// The help `mrnn <command> --help` prints: the command's usage, a sentence on what it does,
// every option it accepts with its default, and an example. `words` are mrnn's positional
// words; the longest known command they start with is meant, so that a project or run id
// after it changes nothing ({"sample", "p.yaml"} is sample's). A word that gathers
// subcommands ({"runs"}, {"analyze"}) lists them. "" when the first words name no command.
std::string commandHelp(const std::vector<std::string>& words);

}  // namespace mrnn::app
