#include "engine/config/seed_groups.h"

#include <map>

#include "engine/config/project_file.h"

namespace mrnn::engine {

std::string configurationKey(const std::string& configYaml) {
  try {
    Project project = parseProject(configYaml, "run settings", false);
    project.name.clear();
    project.description.clear();
    project.runName.clear();
    project.folder.clear();
    project.training.seed = 0;
    project.training.threads = 0;
    project.model.init.seed = 0;
    return projectToYaml(project);
  } catch (const std::exception&) {
    return "text:" + configYaml;  // never equal to a parsed key
  }
}

std::vector<std::vector<int64_t>> groupBySeed(
    const std::vector<std::pair<int64_t, std::string>>& runs) {
  std::vector<std::vector<int64_t>> groups;
  std::map<std::string, size_t> byKey;
  for (const auto& [id, config] : runs) {
    const auto [at, added] = byKey.emplace(configurationKey(config), groups.size());
    if (added) groups.emplace_back();
    groups[at->second].push_back(id);
  }
  return groups;
}

}  // namespace mrnn::engine
