#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mrnn::engine {

// A run's configuration without what only tells its seeds apart (the seeds of training and
// of the initial weights, the project's and run's names, the thread count): runs whose keys
// are equal are one configuration trained with several seeds. The key is the project as
// projectToYaml writes it, so key order and defaults do not split a group; settings that no
// longer parse are compared as text.
std::string configurationKey(const std::string& configYaml);

// Groups runs (id, settings YAML) by configurationKey, each group in the runs' order and the
// groups in the order of their first run.
std::vector<std::vector<int64_t>> groupBySeed(
    const std::vector<std::pair<int64_t, std::string>>& runs);

}  // namespace mrnn::engine
