#include "model_describe_command.h"

#include <iomanip>
#include <ostream>

#include "engine/config/parameter_count.h"
#include "engine/config/project_file.h"
#include "engine/data/corpus.h"
#include "engine/store/text_format.h"

namespace mrnn::app {
namespace {

void printSummary(const engine::ModelSummary& summary, std::ostream& out) {
  size_t detailWidth = 6;
  for (const auto& row : summary.rows) detailWidth = std::max(detailWidth, row.detail.size());
  out << std::left << std::setw(9) << "block" << std::setw(11) << "type"
      << std::setw(static_cast<int>(detailWidth) + 2) << "detail" << std::right << std::setw(8)
      << "in" << std::setw(8) << "out" << std::setw(14) << "parameters"
      << "\n";
  for (const auto& row : summary.rows) {
    out << std::left << std::setw(9) << row.block << std::setw(11) << row.kind
        << std::setw(static_cast<int>(detailWidth) + 2) << row.detail << std::right << std::setw(8)
        << row.inputWidth << std::setw(8) << row.outputWidth << std::setw(14)
        << engine::groupedInteger(row.parameters) << "\n";
  }
  out << std::left << std::setw(static_cast<int>(detailWidth) + 36) << "total" << std::right
      << std::setw(14) << engine::groupedInteger(summary.totalParameters) << "\n";
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
