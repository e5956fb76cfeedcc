#include "interop_command.h"

#include <string>
#include <vector>

#include "engine/analysis/loaded_model.h"
#include "engine/interop/imported_model.h"
#include "engine/interop/model_export.h"
#include "engine/interop/run_import.h"
#include "engine/store/text_format.h"
#include "option_values.h"

namespace mrnn::app {
namespace {

const char* kExportUsage =
    "usage: mrnn export (<project.yaml> [--run ID | --checkpoint PATH] | CHECKPOINT) --output "
    "FILE\n"
    "                   [--format pt|safetensors]\n"
    "  pt (default; safetensors when FILE ends in .safetensors): a state dict torch.load reads,\n"
    "  with FILE.json beside it; safetensors: the description in the file's metadata\n";

const char* kImportUsage =
    "usage: mrnn import FILE --project <project.yaml> [--vocabulary SYMBOLS | --corpus TEXT]\n"
    "                   [--level word|char|byte] [--mapping MAP.yaml] [--name NAME]\n"
    "  FILE: a torch.save'd state dict or .safetensors of an embedding, a torch.nn.LSTM or RNN\n"
    "  and a linear decoder (or a file mrnn export wrote, which carries its vocabulary);\n"
    "  SYMBOLS: one symbol a line, id = line; TEXT: the training corpus, ids in order of first\n"
    "  appearance (word level: each line's words, then <eos>); MAP.yaml: embedding, rnn,\n"
    "  decoder_weight, decoder_bias naming the state dict's parts\n";

bool endsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

int runExportCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const auto unknown = args.unknownOptions({"run", "checkpoint", "output", "format"});
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
  const engine::LoadedModel loaded =
      isProject ? engine::loadModelForAnalysis(source, positiveInteger(args, "run", 0),
                                               args.value("checkpoint"))
                : engine::loadModelFromCheckpoint(source);
  const auto result = engine::exportModel(loaded, output, format);
  out << "exported " << engine::groupedInteger(result.parameters) << " parameters in "
      << result.tensors << " tensors from " << loaded.checkpoint << "\n  to " << result.file;
  if (!result.description.empty()) out << "\n  description: " << result.description;
  out << "\n";
  return 0;
}

int runImportCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const auto unknown =
      args.unknownOptions({"project", "vocabulary", "corpus", "level", "mapping", "name"});
  const std::string level = args.value("level", "word");
  if (!unknown.empty() || words.size() != 2 || !args.has("project") ||
      (args.has("vocabulary") && args.has("corpus")) ||
      (level != "word" && level != "char" && level != "byte")) {
    err << kImportUsage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
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
  out << "imported " << model.description << " as run " << run.runId << " (" << run.name << ", "
      << engine::groupedInteger(run.parameters) << " parameters)\n  checkpoint " << run.checkpoint
      << "\n";
  return 0;
}

}  // namespace mrnn::app
