#include "engine/analysis/loaded_model.h"

#include <torch/torch.h>

#include <filesystem>

#include "engine/analysis/model_placement.h"
#include "engine/models/language_model.h"

#include "engine/store/run_catalogue.h"
#include "engine/training/checkpoint.h"

namespace mrnn::engine {
namespace {

// The model `checkpoint` holds, for `project` (its data and settings); opened once by the caller.
LoadedModel fromCheckpoint(Project project, Checkpoint checkpoint, const torch::Device& device) {
  const std::string& path = checkpoint.path();
  project.model = checkpoint.modelAsTrained(project.model);
  if (!project.model.predictsSymbols()) {
    // Sampling, scores and the probes read next-symbol probabilities, which it has none of.
    throw CheckpointError("checkpoint '" + path +
                          "' is of a model that predicts real numbers (output.type: linear, "
                          "the addition problem): sampling and the analyses read a model "
                          "that predicts symbols");
  }
  LoadedModel loaded;
  loaded.vocabulary = checkpoint.vocabulary();
  if (modelSectionYaml(project.model) != checkpoint.snapshot().modelYaml) {
    throw CheckpointError("checkpoint '" + path + "' was trained with another model than " +
                          "the project's; its model section is:\n" +
                          checkpoint.snapshot().modelYaml);
  }
  loaded.model = std::make_unique<LanguageModel>(project.model, loaded.vocabulary.size());
  checkpoint.loadModel(*loaded.model);  // onto the CPU, where the model was built
  placeForAnalysis(*loaded.model, device);
  loaded.project = std::move(project);
  loaded.checkpoint = path;
  loaded.runId = checkpoint.snapshot().runId;
  return loaded;
}

}  // namespace

LoadedModel::LoadedModel() = default;
LoadedModel::~LoadedModel() = default;
LoadedModel::LoadedModel(LoadedModel&&) noexcept = default;
LoadedModel& LoadedModel::operator=(LoadedModel&&) noexcept = default;

size_t LoadedModel::layerCount() const {
  return model ? model->layerCount() : 0;
}
int64_t LoadedModel::parameterCount() const {
  return model ? model->parameterCount() : 0;
}

void placeForAnalysis(LanguageModel& model, const torch::Device& device) {
  model.to(device);
  model.eval();
}

LoadedModel loadModelForAnalysis(const std::string& projectFile, int64_t runId,
                                 const std::string& checkpoint, const torch::Device& device) {
  Project project = loadProject(projectFile);
  const std::string path =
      checkpoint.empty() ? RunCatalogue(project.folder).checkpointToAnalyse(runId) : checkpoint;
  Checkpoint opened = Checkpoint::openOfRun(path, project.folder);
  return fromCheckpoint(std::move(project), std::move(opened), device);
}

LoadedModel loadModelForAnalysis(const std::string& projectFile, int64_t runId,
                                 const std::string& checkpoint) {
  return loadModelForAnalysis(projectFile, runId, checkpoint, torch::kCPU);
}

LoadedModel loadModelFromCheckpoint(const std::string& path) {
  return loadModelFromCheckpoint(path, torch::kCPU);
}

LoadedModel loadModelFromCheckpoint(const std::string& path, const torch::Device& device) {
  Checkpoint checkpoint = Checkpoint::open(path);
  Project project = parseProject(checkpoint.snapshot().projectYaml, path + " (stored project)");
  project.folder = std::filesystem::path(path).parent_path().string();
  return fromCheckpoint(std::move(project), std::move(checkpoint), device);
}

}  // namespace mrnn::engine
