#include "engine/interop/model_export.h"

#include <torch/torch.h>

#include <filesystem>
#include <map>
#include <optional>

#include "engine/interop/exported_model_description.h"
#include "engine/interop/exported_tensors.h"
#include "engine/interop/model_file_kind.h"
#include "engine/interop/safetensors_file.h"
#include "engine/interop/torch_file.h"
#include "engine/io/atomic_file.h"
#include "engine/models/language_model.h"
#include "engine/store/run_catalogue.h"
#include "engine/training/checkpoint.h"

namespace mrnn::engine {
namespace {

bool endsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

ExportSource sourceOf(const LoadedModel& loaded) {
  ExportSource source;
  source.run = loaded.runId;
  source.checkpoint = loaded.checkpoint;
  if (loaded.checkpoint.empty()) return source;
  try {
    const Checkpoint checkpoint = Checkpoint::open(loaded.checkpoint);
    source.step = checkpoint.snapshot().step;
    if (checkpoint.snapshot().bestValid > 0) source.bestValidBits = checkpoint.snapshot().bestValid;
    // A checkpoint opened alone lives in <project>/checkpoints/run-N/.
    const auto checkpointProject =
        std::filesystem::path(loaded.checkpoint).parent_path().parent_path().parent_path();
    for (const std::string& folder : {loaded.project.folder, checkpointProject.string()}) {
      if (loaded.runId <= 0 || folder.empty() || !RunCatalogue::exists(folder)) continue;
      const RunCatalogue catalogue(folder);
      if (!catalogue.ownsProjectId(checkpoint.snapshot().projectId)) continue;
      if (auto run = catalogue.run(loaded.runId)) source.runName = run->name;
      break;
    }
  } catch (const std::exception&) {
    // The source is a courtesy: a model outside its project still exports.
  }
  return source;
}

// Whether the first bytes of `path` (up to `limit`) hold the description's format tag.
bool headHoldsTag(const std::string& path, size_t limit) {
  return fileHead(path, limit).find(kExportFormatTag) != std::string::npos;
}

}  // namespace

bool isExportedModelFile(const std::string& path) {
  if (endsWith(path, ".json")) return headHoldsTag(path, 4096);
  // A safetensors header is read whole by readers; the tag is inside it.
  if (isSafetensorsName(path)) return headHoldsTag(path, size_t{1} << 26);
  return std::filesystem::is_regular_file(exportDescriptionPath(path)) &&
         headHoldsTag(exportDescriptionPath(path), 4096);
}

std::vector<std::string> exportOutputs(const std::string& output, ModelFileFormat format) {
  if (format == ModelFileFormat::Safetensors) return {output};
  return {output, exportDescriptionPath(output)};
}

ModelFileFormat modelFileFormatFor(const std::string& path) {
  return isSafetensorsName(path) ? ModelFileFormat::Safetensors : ModelFileFormat::Torch;
}

NamedTensors exportedTensors(LanguageModel& model) {
  torch::NoGradGuard noGrad;
  std::map<std::string, torch::Tensor> effective;
  for (size_t i = 0; i < model.layerCount(); ++i) {
    for (auto& [name, weight] : model.layer(i).effectiveRecurrentWeights()) {
      effective["layer" + std::to_string(i + 1) + "." + name] = weight;
    }
  }
  NamedTensors tensors;
  for (const auto& parameter : model.named_parameters()) {
    const std::string& name = parameter.key();
    if (endsWith(name, "_g") && effective.count(name.substr(0, name.size() - 2))) continue;
    const auto found = effective.find(name);
    torch::Tensor value = found != effective.end()
                              ? found->second.reshape(parameter.value().sizes())
                              : parameter.value().detach();
    tensors.emplace_back(name, value.to(torch::kCPU, torch::kFloat32).contiguous().clone());
  }
  return tensors;
}

ExportResult exportModel(const LoadedModel& loaded, const std::string& output,
                         ModelFileFormat format, OutputRules rules) {
  rules.inputs.push_back(loaded.checkpoint);
  for (const std::string& file : exportOutputs(output, format)) checkOutputPath(file, rules);
  if (!loaded.project.model.predictsSymbols()) {
    throw InteropError(
        "the model predicts real numbers (output.type: linear); export writes "
        "language models, which predict symbols");
  }
  if (loaded.project.model.input.values > 0) {
    throw InteropError(
        "the model reads real-valued inputs beside its symbols (input.values); "
        "export writes language models of symbols alone");
  }
  const std::string description = exportDescriptionJson(loaded.project.model, loaded.model->vocab(),
                                                        loaded.vocabulary, sourceOf(loaded));
  const NamedTensors tensors = exportedTensors(*loaded.model);
  ExportResult result;
  result.file = output;
  result.tensors = static_cast<int64_t>(tensors.size());
  for (const auto& entry : tensors) result.parameters += entry.second.numel();
  if (format == ModelFileFormat::Safetensors) {
    writeSafetensors(output, {tensors, {{"mrnn", description}, {"format", "pt"}}});
    return result;
  }
  // The description first: a reader that finds the weights finds what describes them.
  result.description = exportDescriptionPath(output);
  // An earlier export's description is put back if the weights fail (its weights stay).
  std::optional<std::string> earlier;
  try {
    if (std::filesystem::is_regular_file(result.description))
      earlier = readWholeFile(result.description);
    writeFileAtomically(result.description, description);
  } catch (const std::exception& error) {
    throw InteropError(error.what());
  }
  try {
    writeTorchStateDict(output, tensors);
  } catch (const InteropError&) {
    std::error_code ignored;
    try {
      if (earlier)
        writeFileAtomically(result.description, *earlier);
      else
        std::filesystem::remove(result.description, ignored);
    } catch (const std::exception&) {
      // The weights' failure is what the caller needs to hear.
    }
    throw;
  }
  return result;
}

}  // namespace mrnn::engine
