#include "engine/analysis/loaded_model.h"

#include <torch/torch.h>

#include <filesystem>

#include "engine/store/run_store.h"
#include "engine/training/checkpoint.h"
#include "engine/training/run_paths.h"

namespace mrnn::engine {
namespace {

LoadedModel fromCheckpoint(Project project, const std::string& path) {
  Checkpoint checkpoint = Checkpoint::open(path);
  LoadedModel loaded;
  loaded.vocabulary = checkpoint.vocabulary();
  if (modelSectionYaml(project.model) != checkpoint.snapshot().modelYaml) {
    throw CheckpointError("checkpoint '" + path + "' was trained with another model than " +
                          "the project's; its model section is:\n" +
                          checkpoint.snapshot().modelYaml);
  }
  loaded.model = std::make_unique<LanguageModel>(project.model, loaded.vocabulary.size());
  checkpoint.loadModel(*loaded.model);
  loaded.model->eval();
  loaded.project = std::move(project);
  loaded.checkpoint = path;
  return loaded;
}

}  // namespace

std::string findCheckpoint(const Project& project, int64_t runId) {
  const std::string database = RunPaths::database(project.folder);
  if (!std::filesystem::exists(database)) {
    throw std::runtime_error("no runs yet in " + project.folder + "; train the project first");
  }
  RunStore store(database);
  auto checkpointOf = [&](int64_t id) {
    const std::string best = RunPaths::best(project.folder, id);
    return std::filesystem::exists(best) ? best : RunPaths::latest(project.folder, id);
  };
  if (runId == 0) {
    // The newest run that still has a checkpoint (a run may have been cleaned up by hand).
    for (const auto& run : store.listRuns()) {
      if (run.id > runId && std::filesystem::exists(checkpointOf(run.id))) runId = run.id;
    }
    if (runId == 0) {
      throw std::runtime_error("no run in " + project.folder + " has a checkpoint; train first");
    }
  } else if (!store.run(runId)) {
    throw std::runtime_error("there is no run " + std::to_string(runId) + " in " + database);
  }
  return checkpointOf(runId);
}

LoadedModel loadModelForAnalysis(const std::string& projectFile, int64_t runId,
                                 const std::string& checkpoint) {
  Project project = loadProject(projectFile);
  const std::string path = checkpoint.empty() ? findCheckpoint(project, runId) : checkpoint;
  return fromCheckpoint(std::move(project), path);
}

LoadedModel loadModelFromCheckpoint(const std::string& path) {
  Checkpoint checkpoint = Checkpoint::open(path);
  Project project = parseProject(checkpoint.snapshot().projectYaml, path + " (stored project)");
  project.folder = std::filesystem::path(path).parent_path().string();
  return fromCheckpoint(std::move(project), path);
}

}  // namespace mrnn::engine
