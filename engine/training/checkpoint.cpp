#include "engine/training/checkpoint.h"

#include <ATen/Context.h>
#include <caffe2/serialize/versions.h>
#include <torch/torch.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "engine/config/model_config_parser.h"
#include "engine/config/model_config_writer.h"
#include "engine/config/project_file.h"
#include "engine/config/yaml_reader.h"
#include "engine/io/atomic_file.h"
#include "engine/io/checkpoint_envelope.h"
#include "engine/io/script_declarations.h"
#include "engine/io/script_pickles.h"
#include "engine/io/zip_directory.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/text_format.h"
#include "engine/training/library_error_text.h"

namespace mrnn::engine {
namespace {

const char* kMagic = "mrnn-workbench checkpoint";
void writeString(torch::serialize::OutputArchive& archive, const std::string& key,
                 const std::string& value) {
  archive.write(key, c10::IValue(value));
}

std::string readString(torch::serialize::InputArchive& archive, const std::string& key) {
  c10::IValue value;
  archive.read(key, value);
  return value.toStringRef();
}

// A key later versions added: empty in a file written before it (or holding no string).
std::string readOptionalString(torch::serialize::InputArchive& archive, const std::string& key) {
  c10::IValue value;
  if (!archive.try_read(key, value) || !value.isString()) return std::string();
  return value.toStringRef();
}

int64_t readInt(torch::serialize::InputArchive& archive, const std::string& key) {
  c10::IValue value;
  archive.read(key, value);
  return value.toInt();
}

double readDouble(torch::serialize::InputArchive& archive, const std::string& key) {
  c10::IValue value;
  archive.read(key, value);
  return value.toDouble();
}

std::string stateKey(size_t layer, size_t part) {
  return "state_" + std::to_string(layer) + "_" + std::to_string(part);
}

// Before `bias` became a key of mrnn layers (the paper's eq. 8 has no bias, the default now),
// every mrnn layer had one. Such a checkpoint's stored model and project say so explicitly
// from here on, so that it loads as the model it is and a project must ask for the bias.
bool addLegacyMrnnBias(YAML::Node layers) {
  bool changed = false;
  if (!layers || !layers.IsSequence()) return false;
  for (auto layer : layers) {
    if (layer.IsMap() && layer["type"] && layer["type"].as<std::string>("") == "mrnn" &&
        !layer["bias"]) {
      layer["bias"] = true;
      changed = true;
    }
  }
  return changed;
}

void upgradeLegacyMrnnBias(TrainingSnapshot& s, const std::string& path) {
  if (s.modelYaml.find("mrnn") == std::string::npos) return;
  try {
    // Through the bounded loader: a damaged checkpoint may hold an alias inside its anchor.
    const std::string storedModel = path + " (stored model)";
    YAML::Node model = loadYamlText(s.modelYaml, storedModel);
    if (!addLegacyMrnnBias(model["layers"])) return;
    YamlReader reader(storedModel);
    s.modelYaml = modelSectionYaml(parseModelSection(model, reader));
    YAML::Node project = loadYamlText(s.projectYaml, path + " (stored project)");
    if (project["model"] && addLegacyMrnnBias(project["model"]["layers"])) {
      YAML::Emitter out;
      out << project;
      s.projectYaml = out.c_str();
    }
  } catch (const std::exception& error) {
    throw CheckpointError("checkpoint '" + path + "' holds a model section that cannot be read: " +
                          libraryErrorText(error));
  }
}

// Generator states are bytes, one row a rank; the CPU generator's of the size it keeps.
// Checked here, so that a damaged one is refused naming the file rather than failing inside
// LibTorch when a resumed run restores it.
void checkGeneratorStates(const TrainingSnapshot& s, const std::string& path) {
  const int64_t cpuBytes = at::detail::getDefaultCPUGenerator().get_state().numel();
  const auto sound = [](const torch::Tensor& state, int64_t dims, int64_t rowBytes) {
    if (!state.defined()) return true;
    if (state.scalar_type() != torch::kUInt8 || state.dim() != dims || state.numel() == 0) {
      return false;
    }
    return rowBytes == 0 || state.size(dims - 1) == rowBytes;
  };
  if (!sound(s.rngState, 1, cpuBytes) || !sound(s.rankRngStates, 2, cpuBytes) ||
      !sound(s.gpuRngState, 1, 0) || !sound(s.rankGpuRngStates, 2, 0)) {
    throw CheckpointError("checkpoint '" + path +
                          "' is damaged: its random-number generator state is not one this "
                          "workbench writes");
  }
}

}  // namespace

std::string modelSectionYaml(const ModelConfig& model) {
  ModelConfig normalised = model;
  normalised.input.vocabSize = 0;  // the vocabulary is compared by fingerprint instead
  YAML::Emitter out;
  emitModelSection(out, normalised);
  return out.c_str();
}

void Checkpoint::save(const std::string& path, const TrainingSnapshot& snapshot,
                      LanguageModel& model, const UpdateRule* rule, const ModelState* state) {
  torch::serialize::OutputArchive archive;
  writeString(archive, "magic", kMagic);
  writeString(archive, "project_yaml", snapshot.projectYaml);
  writeString(archive, "model_yaml", snapshot.modelYaml);
  writeString(archive, "vocabulary", snapshot.vocabulary);
  archive.write("step", c10::IValue(snapshot.step));
  archive.write("symbols", c10::IValue(snapshot.symbols));
  archive.write("run_id", c10::IValue(snapshot.runId));
  writeString(archive, "project_id", snapshot.projectId);
  writeString(archive, "run_name", snapshot.runName);
  writeString(archive, "imported_from", snapshot.importedFrom);
  archive.write("best_valid", c10::IValue(snapshot.bestValid));
  archive.write("bad_validations", c10::IValue(snapshot.badValidations));
  archive.write("best_error_rate", c10::IValue(snapshot.bestErrorRate));
  archive.write("wall_seconds", c10::IValue(snapshot.wallSeconds));
  writeString(archive, "batcher_state", snapshot.batcherState);
  writeString(archive, "schedule_state", snapshot.scheduleState);
  if (snapshot.rngState.defined()) archive.write("rng_state", snapshot.rngState);
  if (snapshot.rankRngStates.defined()) archive.write("rank_rng_states", snapshot.rankRngStates);
  if (snapshot.gpuRngState.defined()) archive.write("gpu_rng_state", snapshot.gpuRngState);
  if (snapshot.rankGpuRngStates.defined()) {
    archive.write("rank_gpu_rng_states", snapshot.rankGpuRngStates);
  }

  torch::serialize::OutputArchive modelArchive;
  model.save(modelArchive);
  archive.write("model", modelArchive);
  if (rule) {
    torch::serialize::OutputArchive ruleArchive;
    rule->save(ruleArchive);
    archive.write(rule->archiveKey(), ruleArchive);
  }
  if (state) {
    archive.write("state_layers", c10::IValue(static_cast<int64_t>(state->layers.size())));
    for (size_t l = 0; l < state->layers.size(); ++l) {
      for (size_t p = 0; p < state->layers[l].parts.size(); ++p) {
        archive.write(stateKey(l, p), state->layers[l].parts[p].detach().cpu());
      }
    }
  }
  std::ostringstream bytes;
  archive.save_to(bytes);
  const std::string payload = bytes.str();
  writeFileAtomically(path, sealCheckpoint(payload));
}

Checkpoint Checkpoint::openOfRun(const std::string& path, const std::string& projectFolder) {
  try {
    return open(path);
  } catch (const CheckpointError& error) {
    std::string other;
    try {
      if (RunCatalogue::exists(projectFolder)) {
        other = RunCatalogue(projectFolder).wholeAlternativeTo(path);
      }
    } catch (const std::exception&) {
      // The database unreadable too: the checkpoint's own fault is the one said.
    }
    throw CheckpointError(error.what() + other);
  }
}

Checkpoint Checkpoint::open(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    throw CheckpointError("checkpoint '" + path + "' does not exist");
  }
  Checkpoint checkpoint;
  checkpoint.path_ = path;
  std::string file;
  try {
    // A checkpoint is as large as its model: the file's own size is the bound.
    file = readWholeFile(path, UINT64_MAX);
  } catch (const std::exception& error) {
    throw CheckpointError("cannot read checkpoint: " + libraryErrorText(error));
  }
  const std::string envelopeProblem = checkpointEnvelopeProblem(file, path);
  if (!envelopeProblem.empty()) throw CheckpointError(envelopeProblem);
  const std::string payloadBytes = file.substr(kCheckpointHeaderBytes);
  const std::string problem =
      torchArchiveProblem(payloadBytes, caffe2::serialize::kMaxSupportedFileFormatVersion);
  if (!problem.empty()) {
    throw CheckpointError("checkpoint '" + path + "' cannot be read: it is corrupt (" + problem +
                          ")");
  }
  // LibTorch compiles the archive's source and runs a __setstate__ in it: declarations only.
  const std::string codeProblem = scriptDeclarationsProblem(payloadBytes);
  if (!codeProblem.empty()) {
    throw CheckpointError("checkpoint '" + path + "' cannot be read: " + codeProblem +
                          "; it was not written by the workbench");
  }
  // ... and trusts every length, storage size and tensor view its pickles declare.
  const std::string pickleProblem = scriptPicklesProblem(payloadBytes);
  if (!pickleProblem.empty()) {
    throw CheckpointError("checkpoint '" + path + "' cannot be read: it is corrupt (" +
                          pickleProblem + ")");
  }
  try {
    std::istringstream payload(payloadBytes);
    checkpoint.archive_.load_from(payload, torch::Device(torch::kCPU));
  } catch (const std::exception& error) {
    throw CheckpointError("checkpoint '" + path + "' cannot be read: it is corrupt (" +
                          libraryErrorText(error) + ")");
  }
  auto& archive = checkpoint.archive_;
  TrainingSnapshot& s = checkpoint.snapshot_;
  try {
    if (readString(archive, "magic") != kMagic) throw std::runtime_error("wrong magic");
  } catch (const std::exception&) {
    throw CheckpointError("'" + path + "' is not an mRNN Workbench checkpoint");
  }
  try {
    s.projectYaml = readString(archive, "project_yaml");
    s.modelYaml = readString(archive, "model_yaml");
    s.vocabulary = readString(archive, "vocabulary");
    s.step = readInt(archive, "step");
    s.runId = readInt(archive, "run_id");
    s.bestValid = readDouble(archive, "best_valid");
    s.badValidations = readInt(archive, "bad_validations");
    s.wallSeconds = readDouble(archive, "wall_seconds");
    s.batcherState = readString(archive, "batcher_state");
    s.scheduleState = readString(archive, "schedule_state");
    torch::Tensor rng;
    if (archive.try_read("rng_state", rng)) s.rngState = rng;
    torch::Tensor ranks;
    if (archive.try_read("rank_rng_states", ranks)) s.rankRngStates = ranks;
    torch::Tensor gpuRng;
    if (archive.try_read("gpu_rng_state", gpuRng)) s.gpuRngState = gpuRng;
    torch::Tensor gpuRanks;
    if (archive.try_read("rank_gpu_rng_states", gpuRanks)) s.rankGpuRngStates = gpuRanks;
    c10::IValue symbols;
    if (archive.try_read("symbols", symbols) && symbols.isInt()) s.symbols = symbols.toInt();
    c10::IValue bestError;
    if (archive.try_read("best_error_rate", bestError) && bestError.isDouble()) {
      s.bestErrorRate = bestError.toDouble();
    }
    s.projectId = readOptionalString(archive, "project_id");
    s.runName = readOptionalString(archive, "run_name");
    s.importedFrom = readOptionalString(archive, "imported_from");
  } catch (const std::exception& error) {
    throw CheckpointError("checkpoint '" + path + "' is incomplete: " + libraryErrorText(error));
  }
  checkGeneratorStates(s, path);
  upgradeLegacyMrnnBias(s, path);
  checkpoint.vocabulary();  // a damaged vocabulary is refused here, naming the file
  return checkpoint;
}

Vocabulary Checkpoint::vocabulary() const {
  try {
    return Vocabulary::deserialize(snapshot_.vocabulary);
  } catch (const std::exception& error) {
    throw CheckpointError("checkpoint '" + path_ + "' is damaged: its vocabulary cannot be read (" +
                          terminalText(error.what()) + ")");
  }
}

namespace {

// A model-section line as a researcher wrote it: "recurrent_scale: 0.7", where the stored
// text keeps every digit of the double (0.69999999999999996).
std::string asWritten(const std::string& line) {
  const size_t first = line.find_first_not_of(" -");
  if (first == std::string::npos) return "nothing";
  std::string text = line.substr(first);
  const size_t colon = text.find(": ");
  if (colon != std::string::npos) {
    const std::string value = text.substr(colon + 2);
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (!value.empty() && end && *end == '\0' && value.find('.') != std::string::npos) {
      char shortest[32];
      std::snprintf(shortest, sizeof shortest, "%.15g", number);
      text = text.substr(0, colon + 2) + shortest;
    }
  }
  return "`" + text + "`";
}

// The first line where two model sections differ, in one line: "`hidden_size: 256` in the
// checkpoint, `hidden_size: 512` in the project" (a line missing on one side is "nothing").
std::string firstDifference(const std::string& stored, const std::string& project) {
  std::istringstream a(stored), b(project);
  std::string left, right;
  while (true) {
    const bool moreLeft = static_cast<bool>(std::getline(a, left));
    const bool moreRight = static_cast<bool>(std::getline(b, right));
    if (!moreLeft && !moreRight) return "the model sections differ";
    if (!moreLeft) left.clear();
    if (!moreRight) right.clear();
    if (left != right) {
      return asWritten(left) + " in the checkpoint, " + asWritten(right) + " in the project";
    }
  }
}

}  // namespace

ModelConfig Checkpoint::modelAsTrained(const ModelConfig& project) const {
  if (modelSectionYaml(project) == snapshot_.modelYaml) return project;
  return parseProject(snapshot_.projectYaml, path_ + " (stored project)").model;
}

void Checkpoint::checkCompatible(const ModelConfig& model, const Vocabulary& vocabulary) const {
  const std::string mine = modelSectionYaml(model);
  if (mine != snapshot_.modelYaml) {
    throw CheckpointError("checkpoint '" + path_ + "' was trained with another model (" +
                          firstDifference(snapshot_.modelYaml, mine) + ")");
  }
  const Vocabulary stored = this->vocabulary();
  if (stored.fingerprint() != vocabulary.fingerprint()) {
    throw CheckpointError(
        "checkpoint '" + path_ + "' was trained with another vocabulary than this corpus's (" +
        vocabularyDifference(stored, vocabulary) + "; first the checkpoint's, then the corpus's)");
  }
}

void Checkpoint::loadModel(LanguageModel& model) {
  torch::serialize::InputArchive modelArchive;
  try {
    archive_.read("model", modelArchive);
    model.load(modelArchive);
  } catch (const std::exception& error) {
    throw CheckpointError("checkpoint '" + path_ + "': the weights do not fit this model (" +
                          libraryErrorText(error) + ")");
  }
  // Such a file comes from elsewhere (training never saves non-finite weights): scoring or
  // sampling from it would print NaN or empty text as if it were a result.
  torch::NoGradGuard noGrad;
  for (const auto& entry : model.named_parameters()) {
    if (!torch::isfinite(entry.value()).all().item<bool>()) {
      throw CheckpointError("checkpoint '" + path_ + "' holds NaN or infinite weights (" +
                            entry.key() + "); it cannot be evaluated, sampled or resumed");
    }
  }
}

bool Checkpoint::loadRule(UpdateRule& rule) {
  torch::serialize::InputArchive ruleArchive;
  if (!archive_.try_read(rule.archiveKey(), ruleArchive)) return false;
  try {
    rule.load(ruleArchive);
  } catch (const std::exception& error) {
    throw CheckpointError("checkpoint '" + path_ + "': the optimiser state does not fit (" +
                          libraryErrorText(error) + ")");
  }
  return true;
}

bool Checkpoint::loadState(ModelState& state, const LanguageModel& model) {
  c10::IValue layers;
  if (!archive_.try_read("state_layers", layers)) return false;
  if (!layers.isInt() || layers.toInt() != static_cast<int64_t>(model.layerCount()) ||
      state.layers.size() != model.layerCount()) {
    throw CheckpointError("checkpoint '" + path_ + "': its recurrent state has " +
                          (layers.isInt() ? std::to_string(layers.toInt()) : "no number of") +
                          " layers; the model has " + std::to_string(model.layerCount()));
  }
  try {
    for (size_t l = 0; l < state.layers.size(); ++l) {
      for (size_t p = 0; p < state.layers[l].parts.size(); ++p) {
        torch::Tensor part;
        archive_.read(stateKey(l, p), part);
        const torch::Tensor& fresh = state.layers[l].parts[p];
        if (part.sizes() != fresh.sizes()) return false;  // another batch size
        state.layers[l].parts[p] = part.to(fresh.device(), fresh.scalar_type());
      }
    }
  } catch (const CheckpointError&) {
    throw;
  } catch (const std::exception& error) {
    throw CheckpointError("checkpoint '" + path_ + "': its recurrent state cannot be read (" +
                          libraryErrorText(error) + ")");
  }
  return true;
}

}  // namespace mrnn::engine
