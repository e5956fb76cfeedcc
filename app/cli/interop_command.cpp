#include "interop_command.h"

#include <filesystem>
#include <string>
#include <vector>

#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/config/project_store_paths.h"
#include "engine/interop/imported_model.h"
#include "engine/interop/model_export.h"
#include "engine/interop/run_import.h"
#include "engine/io/output_file.h"
#include "engine/models/language_model.h"
#include "engine/store/text_format.h"
#include "option_values.h"

namespace mrnn::app {
namespace {

const char* kExportUsage =
    "usage: mrnn export (<project.yaml> [--run ID | --checkpoint PATH] | CHECKPOINT) --output "
    "FILE\n"
    "                   [--format pt|safetensors] [--force]\n"
    "  pt (default; safetensors when FILE ends in .safetensors): a state dict torch.load reads,\n"
    "  with FILE.json beside it; safetensors: the description in the file's metadata.\n"
    "  FILE is new, or a file mrnn export wrote (--force: any regular file); never a link,\n"
    "  device, the checkpoint read, or a file the project keeps (runs, checkpoints, corpora)\n";

const char* kImportUsage =
    "usage: mrnn import FILE --project <project.yaml> [--vocabulary SYMBOLS | --corpus TEXT]\n"
    "                   [--level word|char|byte] [--mapping MAP.yaml] [--name NAME]\n"
    "  --level: the project's (model.input.level) unless given\n"
    "  FILE: a torch.save'd state dict or .safetensors of an embedding, a torch.nn.LSTM, GRU\n"
    "  or RNN and a linear decoder (or a file mrnn export wrote, which carries its vocabulary);\n"
    "  SYMBOLS: one symbol a line, id = line; TEXT: the training corpus, ids in order of first\n"
    "  appearance (word level: each line's words, then <eos>); MAP.yaml: embedding, rnn,\n"
    "  decoder_weight, decoder_bias naming the state dict's parts\n";

bool endsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// What an export reads and what its project keeps: never its output.
engine::OutputRules exportRules(const CommandLine& args, const std::string& source,
                                bool isProject) {
  engine::OutputRules rules;
  rules.ownOutput = engine::isExportedModelFile;
  rules.replaceAny = args.has("force");
  rules.inputs.push_back(source);
  if (isProject) {
    rules.guarded = engine::projectStorePaths(engine::loadProject(source), source);
    if (args.has("checkpoint")) rules.inputs.push_back(args.value("checkpoint"));
    return rules;
  }
  // A checkpoint opened alone lives in <project>/checkpoints/run-N/.
  const std::filesystem::path runFolder = std::filesystem::path(source).parent_path();
  if (runFolder.parent_path().filename() == "checkpoints") {
    rules.guarded = engine::projectStorePathsIn(runFolder.parent_path().parent_path().string());
  }
  return rules;
}

}  // namespace

int runExportCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const auto unknown = args.unknownOptions({"run", "checkpoint", "output", "format", "force"});
  if (!unknown.empty() || words.size() != 2 || !args.has("output") ||
      (args.has("format") && args.value("format") != "pt" &&
       args.value("format") != "safetensors")) {
    err << kExportUsage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  const std::string source = words[1];
  const bool isProject = endsWith(source, ".yaml") || endsWith(source, ".yml");
  if (!isProject && (args.has("run") || args.has("checkpoint"))) {
    throw UsageError("--run and --checkpoint choose a checkpoint of a project; '" + source +
                     "' is a checkpoint already");
  }
  const std::string output = args.value("output");
  const auto format = args.has("format") ? (args.value("format") == "safetensors"
                                                ? engine::ModelFileFormat::Safetensors
                                                : engine::ModelFileFormat::Torch)
                                         : engine::modelFileFormatFor(output);
  // Every file the export writes is checked before anything is read or written.
  const engine::OutputRules rules = exportRules(args, source, isProject);
  for (const std::string& file : engine::exportOutputs(output, format)) {
    engine::checkOutputPath(file, rules);
  }
  const engine::LoadedModel loaded =
      isProject ? engine::loadModelForAnalysis(source, positiveInteger(args, "run", 0),
                                               args.value("checkpoint"))
                : engine::loadModelFromCheckpoint(source);
  const auto result = engine::exportModel(loaded, output, format, rules);
  out << "exported " << engine::groupedInteger(result.parameters) << " parameters in "
      << result.tensors << " tensors from " << engine::terminalText(loaded.checkpoint) << "\n  to "
      << engine::terminalText(result.file);
  if (!result.description.empty()) {
    out << "\n  description: " << engine::terminalText(result.description);
  }
  out << "\n";
  return 0;
}

int runImportCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const auto unknown =
      args.unknownOptions({"project", "vocabulary", "corpus", "level", "mapping", "name"});
  // The project's own level unless another is said: the run must read the project's text.
  const std::string level =
      args.has("level") ? args.value("level")
      : args.has("project")
          ? engine::inputLevelName(engine::loadProject(args.value("project")).model.input.level)
          : "word";
  if (!unknown.empty() || words.size() != 2 || !args.has("project") ||
      (args.has("vocabulary") && args.has("corpus")) ||
      (level != "word" && level != "char" && level != "byte")) {
    err << kImportUsage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  if (args.has("name") && args.value("name").empty()) {
    throw UsageError("--name needs a name (leave it out for 'imported <file>')");
  }
  engine::ImportRequest request;
  request.file = words[1];
  request.vocabularyFile = args.value("vocabulary");
  request.corpusFile = args.value("corpus");
  request.level = level == "char"   ? engine::InputLevel::Char
                  : level == "byte" ? engine::InputLevel::Byte
                                    : engine::InputLevel::Word;
  request.mappingFile = args.value("mapping");
  const engine::ImportedModel model = engine::readModelFile(request);
  const auto run =
      engine::importAsRun(args.value("project"), model, request.file, args.value("name"));
  out << "imported " << engine::terminalText(model.description) << " as run " << run.runId << " ("
      << engine::terminalText(run.name) << ", " << engine::groupedInteger(run.parameters)
      << " parameters)\n  checkpoint " << engine::terminalText(run.checkpoint) << "\n";
  return 0;
}

}  // namespace mrnn::app
