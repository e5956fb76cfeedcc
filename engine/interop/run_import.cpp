#include "engine/interop/run_import.h"

#include <torch/torch.h>

#include <filesystem>
#include <set>

#include "engine/config/model_names.h"
#include "engine/config/project_file.h"
#include "engine/interop/imported_model.h"
#include "engine/models/language_model.h"
#include "engine/store/imported_run.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/text_format.h"
#include "engine/training/checkpoint.h"
#include "engine/training/library_error_text.h"

namespace mrnn::engine {
namespace {

// Builds the model and copies every weight in, refusing any name or shape that does not fit.
std::unique_ptr<LanguageModel> buildModel(const ImportedModel& imported, const std::string& file) {
  std::unique_ptr<LanguageModel> model;
  try {
    model = std::make_unique<LanguageModel>(imported.model, imported.vocabulary.size());
  } catch (const std::exception& error) {
    throw InteropError(
        "'" + file + "' describes a model the workbench cannot build: " + libraryErrorText(error));
  }
  torch::NoGradGuard noGrad;
  std::set<std::string> placed;
  std::vector<std::string> missing;
  for (auto& parameter : model->named_parameters()) {
    const torch::Tensor* weight = findTensor(imported.weights, parameter.key());
    if (!weight) {
      missing.push_back(parameter.key());
      continue;
    }
    if (weight->sizes() != parameter.value().sizes()) {
      throw InteropError("'" + file + "': '" + parameter.key() + "' has shape " +
                         shapeText(weight->sizes()) + " where the model needs " +
                         shapeText(parameter.value().sizes()));
    }
    parameter.value().copy_(*weight);
    placed.insert(parameter.key());
  }
  std::string extra;
  for (const auto& [name, tensor] : imported.weights) {
    if (!placed.count(name)) extra += (extra.empty() ? "" : ", ") + name;
  }
  if (!missing.empty() || !extra.empty()) {
    std::string lacks;
    for (const auto& name : missing) lacks += (lacks.empty() ? "" : ", ") + name;
    throw InteropError(
        "'" + file + "' does not fit the model it describes" +
        (lacks.empty() ? "" : ": it lacks " + lacks) +
        (extra.empty() ? ""
                       : std::string(lacks.empty() ? ":" : ";") + " it has no place for " + extra));
  }
  model->eval();
  return model;
}

}  // namespace

ImportedRun importAsRun(const std::string& projectFile, const ImportedModel& imported,
                        const std::string& sourceFile, const std::string& name) {
  Project project = loadProject(projectFile);
  // The run reads the project's text: a model of another level could read none of it.
  const InputLevel level = imported.model.input.level;
  if (project.hasData && level != project.model.input.level) {
    throw InteropError("'" + sourceFile + "' is a " + inputLevelName(level) +
                       "-level model, and the project reads its data at " +
                       inputLevelName(project.model.input.level) +
                       " level (model.input.level); import it into a project of its level");
  }
  auto model = buildModel(imported, sourceFile);
  project.model = imported.model;
  const std::string source = std::filesystem::absolute(sourceFile).lexically_normal().string();

  RunCatalogue catalogue(project.folder, RunCatalogue::Access::ReadWrite);
  RunStore& store = catalogue.store();
  RunRecord record;
  record.name =
      name.empty() ? "imported " + std::filesystem::path(sourceFile).filename().string() : name;
  record.modelType = modelTypeSummary(imported.model);
  record.parameters = model->parameterCount();
  record.configYaml = projectToYaml(project);
  record.startedAt = record.endedAt = utcTimestamp();
  record.status = RunStatus::Finished;
  record.reason = kImportedReasonPrefix + source;
  const int64_t runId = store.createRun(record);

  ImportedRun result{runId, record.name, RunPaths::latest(project.folder, runId), record.parameters,
                     imported.description};
  try {
    std::filesystem::create_directories(RunPaths::checkpointFolder(project.folder, runId));
    TrainingSnapshot snapshot;
    snapshot.projectYaml = record.configYaml;
    snapshot.modelYaml = modelSectionYaml(imported.model);
    snapshot.vocabulary = imported.vocabulary.serialize();
    snapshot.projectId = store.projectId();
    snapshot.runId = runId;
    snapshot.runName = record.name;
    snapshot.importedFrom = source;
    Checkpoint::save(result.checkpoint, snapshot, *model, nullptr, nullptr);
    store.recordCheckpoint(runId,
                           {"latest", "checkpoints/run-" + std::to_string(runId) + "/latest.pt", 0,
                            std::nullopt, utcTimestamp()});
    store.setNote(runId, "Imported from " + source + " (" + imported.description + ").");
  } catch (const std::exception& error) {
    // Nothing half-made stays behind: the record goes with its folder.
    try {
      RunCatalogue::removeRunFiles(RunPaths::checkpointFolder(project.folder, runId));
    } catch (const std::exception&) {
      // The import's own failure is what the user needs to hear.
    }
    store.deleteRun(runId);
    throw InteropError("cannot import '" + sourceFile + "': " + libraryErrorText(error));
  }
  return result;
}

ImportedRun importModelFile(const ImportRequest& request, const std::string& projectFile,
                            const std::string& name) {
  return importAsRun(projectFile, readModelFile(request), request.file, name);
}

}  // namespace mrnn::engine
