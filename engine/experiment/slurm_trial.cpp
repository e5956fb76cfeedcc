#include "engine/experiment/slurm_trial.h"

#include <algorithm>
#include <filesystem>

namespace mrnn::engine {
namespace {

namespace fs = std::filesystem;

std::string absoluteIn(const std::string& folder, const std::string& path) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return fs::absolute(fs::path(folder.empty() ? "." : folder) / path).lexically_normal().string();
}

}  // namespace

Project slurmTrialProject(const Project& planned, const std::string& runFolder) {
  Project project = planned;
  // Every path of the data section: the corpus loader resolves them against `folder`.
  DataConfig& data = project.data;
  data.train = absoluteIn(planned.folder, data.train);
  for (std::string& file : data.moreTrain) file = absoluteIn(planned.folder, file);
  data.valid = absoluteIn(planned.folder, data.valid);
  data.test = absoluteIn(planned.folder, data.test);
  project.folder = runFolder;
  return project;
}

std::string importedTrialConfig(const std::string& trainedConfig, const Project& planned) {
  Project project;
  try {
    project = parseProject(trainedConfig, "the trial's run config");
  } catch (const std::exception&) {
    return projectToYaml(planned);  // an unreadable config: the plan's is the next best
  }
  project.data.train = planned.data.train;
  project.data.moreTrain = planned.data.moreTrain;
  project.data.valid = planned.data.valid;
  project.data.test = planned.data.test;
  return projectToYaml(project);
}

int64_t slurmTrialRun(const SlurmTicket& ticket, const std::vector<RunRecord>& runs) {
  int64_t newest = 0;
  bool continued = false;
  for (const RunRecord& run : runs) {
    if (run.id > ticket.lastRun) newest = std::max(newest, run.id);
    continued = continued || (ticket.run > 0 && run.id == ticket.run);
  }
  if (newest > 0) return newest;
  return continued ? ticket.run : 0;
}

}  // namespace mrnn::engine
