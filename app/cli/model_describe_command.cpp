#include "model_describe_command.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <string>

#include "engine/config/parameter_count.h"
#include "engine/config/project_file.h"
#include "engine/data/corpus.h"
#include "engine/store/text_format.h"

namespace mrnn::app {
namespace {

void printSummary(const engine::ModelSummary& summary, std::ostream& out) {
  // Each column as wide as its longest entry (a model of thousands of layers, a layer of
  // millions of units), two spaces apart.
  size_t block = 5, kind = 4, detail = 6, in = 2, out_ = 3, parameters = 10;
  for (const auto& row : summary.rows) {
    block = std::max(block, row.block.size());
    kind = std::max(kind, row.kind.size());
    detail = std::max(detail, row.detail.size());
    in = std::max(in, std::to_string(row.inputWidth).size());
    out_ = std::max(out_, std::to_string(row.outputWidth).size());
    parameters = std::max(parameters, engine::groupedInteger(row.parameters).size());
  }
  parameters = std::max(parameters, engine::groupedInteger(summary.totalParameters).size());
  const auto w = [](size_t width) { return std::setw(static_cast<int>(width) + 2); };
  out << std::left << w(block) << "block" << w(kind) << "type" << w(detail) << "detail"
      << std::right << w(in) << "in" << w(out_) << "out" << w(parameters) << "parameters"
      << "\n";
  for (const auto& row : summary.rows) {
    out << std::left << w(block) << row.block << w(kind) << row.kind << w(detail) << row.detail
        << std::right << w(in) << row.inputWidth << w(out_) << row.outputWidth << w(parameters)
        << engine::groupedInteger(row.parameters) << "\n";
  }
  out << std::left << std::setw(static_cast<int>(block + kind + detail + in + out_) + 10) << "total"
      << std::right << w(parameters) << engine::groupedInteger(summary.totalParameters) << "\n";
}

}  // namespace

int runModelDescribe(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto unknown = args.unknownOptions({"vocab"});
  if (!unknown.empty() || args.positional().size() != 3) {
    err << "usage: mrnn model describe <project.yaml> [--vocab N]\n";
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  const std::string path = args.positional()[2];
  // A ConfigError reaches main(), which prints it (file, line, key) and exits 1.
  engine::Project project = engine::loadProject(path);

  int64_t vocab = project.model.input.vocabSize;
  if (project.model.input.level == engine::InputLevel::Byte) vocab = 256;
  // Generated data fixes its vocabulary in the config.
  if (vocab <= 0 && project.hasData) vocab = engine::generatedVocabularySize(project.data);
  if (args.has("vocab")) {
    try {
      size_t used = 0;
      const std::string raw = args.value("vocab");
      vocab = std::stoll(raw, &used);
      if (used != raw.size() || vocab <= 0) throw std::invalid_argument(raw);
    } catch (const std::exception&) {
      err << "mrnn: --vocab expects a positive integer, got '" << args.value("vocab") << "'\n";
      return 2;
    }
  }
  std::string vocabNote;
  if (vocab <= 0 && project.hasData) {
    // The vocabulary comes from the corpus: read it, as training and the composer do.
    // (A missing or unreadable corpus reaches main(), which names it.)
    vocab = engine::loadCorpus(project.data, project.model.input.level, project.folder)
                .vocabulary.size();
    vocabNote = "vocabulary of " + std::to_string(vocab) + " symbols, read from the corpus\n";
  }
  if (vocab <= 0) {
    err << "mrnn: " << path
        << ": the vocabulary size is not known: the project names no corpus; set "
           "model.input.vocab_size or pass --vocab N\n";
    return 1;
  }

  out << (project.name.empty() ? std::string("(unnamed project)") : project.name) << "  [" << path
      << "]\n"
      << vocabNote << "\n";
  printSummary(engine::summarizeModel(project.model, vocab), out);
  return 0;
}

}  // namespace mrnn::app
