#include "engine/config/project_file.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "engine/config/config_error.h"
#include "engine/config/model_config_parser.h"
#include "engine/config/model_config_writer.h"
#include "engine/config/yaml_reader.h"
#include "engine/io/atomic_file.h"

namespace mrnn::engine {
namespace {

// Real numbers belong to the problems that read them: addition and multiplication read a
// number beside each marker and predict a real result; XOR reads bits and predicts a symbol.
// Every other data set is symbols in and out.
void checkRealValues(const Project& project, YamlReader& reader) {
  const ModelConfig& model = project.model;
  const SyntheticTask task = project.hasData ? project.data.synthetic : SyntheticTask::None;
  const bool realTarget = problemIsRealValued(task);
  const bool readsValues = problemReadsValues(task);
  const bool linear = model.output.kind == OutputKind::Linear;
  const std::string name = syntheticTaskName(task);
  if (realTarget && (model.input.values != 1 || !linear || model.output.size != 1)) {
    reader.failAtKey(model.input.values != 1 ? "model.input.values" : "model.output.type",
                     "the " + name + " problem reads one number beside each marker and " +
                         "predicts a real result: set model.input.values: 1 and " +
                         "model.output.type: linear (size 1)");
  }
  if (task == SyntheticTask::Xor && (model.input.values != 1 || linear)) {
    reader.failAtKey(linear ? "model.output.type" : "model.input.values",
                     "the xor problem reads one bit beside each marker and predicts the symbol "
                     "0 or 1: set model.input.values: 1 and a softmax output");
  }
  if (!readsValues && project.hasData && (linear || model.input.values > 0)) {
    reader.failAtKey(linear ? "model.output.type" : "model.input.values",
                     "real-valued inputs and a linear output belong to the addition, "
                     "multiplication and xor problems (data.synthetic); this data is symbols");
  }
}

}  // namespace

Project parseProject(const std::string& text, const std::string& file,
                     bool checkModelCombinations) {
  const YAML::Node root = loadYamlText(text, file);
  YamlReader reader(file);
  if (!root || root.IsNull()) {
    throw ConfigError(file, 0, 0, "", "the project file is empty; it needs a 'model:' section");
  }
  reader.expectMap(root, "", {"name", "description", "model", "data", "training", "evaluation"});
  Project project;
  project.name = reader.text(root, "", "name", "");
  project.description = reader.text(root, "", "description", "");
  if (!root["model"]) {
    reader.fail(root, "model", "missing; a project needs a 'model:' section");
  }
  try {
    project.model = parseModelSection(root["model"], reader, "model", checkModelCombinations);
    if (root["data"]) {
      project.hasData = true;
      project.data = parseDataSection(root["data"], reader, "data");
      // Generated symbols are whole tokens ("t17", the marker, <eos>; a problem's "X", "go"):
      // only a word-level model reads them as the task defines them.
      if (project.data.synthetic != SyntheticTask::None &&
          project.model.input.level != InputLevel::Word) {
        reader.failAtKey("data.synthetic",
                         "the " + syntheticTaskName(project.data.synthetic) +
                             " task is word level (its symbols are whole tokens); set "
                             "model.input.level: word (it is '" +
                             inputLevelName(project.model.input.level) + "')");
      }
    }
    checkRealValues(project, reader);
    if (root["training"]) {
      project.training = parseTrainingSection(root["training"], reader, "training");
      if (project.training.stopWhenSolved &&
          !(project.hasData && isLongRangeProblem(project.data.synthetic))) {
        reader.failAtKey("training.stop_when_solved",
                         "only a long-range problem (data.synthetic) is solved; this project's "
                         "data has no solved state: remove the key");
      }
      if (project.training.stopWhenSolved &&
          project.data.problem.validSequences < kStopWhenSolvedSequences) {
        reader.failAtKey("training.stop_when_solved",
                         std::to_string(project.data.problem.validSequences) +
                             " validation sequences cannot show a problem solved (below 1% "
                             "wrong, not by luck, needs at least " +
                             std::to_string(kStopWhenSolvedSequences) +
                             "): raise data.problem.valid");
      }
    }
    if (root["evaluation"]) {
      project.evaluation = parseEvaluationSection(root["evaluation"], reader, "evaluation");
    }
  } catch (const YAML::Exception& error) {
    // Shapes the typed reads do not anticipate (a mapping used as a key, say).
    throw ConfigError(file, error.mark.is_null() ? 0 : error.mark.line + 1,
                      error.mark.is_null() ? 0 : error.mark.column + 1, "",
                      "unexpected YAML structure: " + error.msg);
  }
  return project;
}

Project loadProject(const std::string& path) {
  std::string text;
  try {
    text = readWholeFile(path);
  } catch (const FileReadError& error) {
    throw ConfigError(path, 0, 0, "", error.reason());
  }
  Project project = parseProject(text, path);
  project.folder = projectFolderOf(path);
  return project;
}

std::string projectFolderOf(const std::string& projectFile) {
  const std::string folder = std::filesystem::path(projectFile).parent_path().string();
  return folder.empty() ? "." : folder;
}

std::string projectToYaml(const Project& project) {
  YAML::Emitter out;
  // 15 significant digits: every value typed as a decimal of up to 15 digits reads back
  // exactly, and 0.7 is written "0.7", not yaml-cpp's default "0.69999999999999996".
  out.SetDoublePrecision(15);
  out.SetFloatPrecision(7);
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << project.name;
  if (!project.description.empty()) {
    out << YAML::Key << "description" << YAML::Value << project.description;
  }
  out << YAML::Key << "model" << YAML::Value;
  emitModelSection(out, project.model);
  if (project.hasData) {
    out << YAML::Key << "data" << YAML::Value;
    emitDataSection(out, project.data);
  }
  out << YAML::Key << "training" << YAML::Value;
  emitTrainingSection(out, project.training);
  out << YAML::Key << "evaluation" << YAML::Value;
  emitEvaluationSection(out, project.evaluation);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

void saveProject(const Project& project, const std::string& path) {
  writeFileAtomically(path, projectToYaml(project));
}

}  // namespace mrnn::engine
