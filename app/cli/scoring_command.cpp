#include "scoring_command.h"

#include <torch/torch.h>

#include <filesystem>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "analysis_device.h"
#include "command_threads.h"
#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/data/corpus.h"
#include "engine/io/atomic_file.h"
#include "engine/models/language_model.h"
#include "engine/runtime/machine_resources.h"
#include "engine/scoring/debagging.h"
#include "engine/scoring/feature_masking.h"
#include "engine/scoring/scoring_output.h"
#include "engine/scoring/surprisal_recovery.h"
#include "engine/scoring/text_score.h"
#include "engine/scoring/text_score_writer.h"
#include "option_values.h"

namespace mrnn::app {
namespace {

// The text of --file, refused at once when it is more than memory holds (the text and its ids
// are held, about 9 bytes a symbol; the scores stream) or no regular file: readWholeFile
// refuses a FIFO (which would wait for good), a device (/dev/zero never ends) or a folder.
std::string readTextToScore(const std::string& path) {
  std::error_code error;
  const auto bytes = std::filesystem::file_size(path, error);
  if (!error) {
    engine::requireMemory(
        10.0 * static_cast<double>(bytes),
        "scoring '" + path + "' (" + engine::formatBytes(static_cast<double>(bytes)) + ")",
        "Score it in parts");
  }
  return engine::readWholeFile(path, std::numeric_limits<uint64_t>::max());
}

// The model to analyse, on --device (every mode: text, debag, recovery, mask).
engine::LoadedModel load(const CommandLine& args, const std::string& project) {
  return engine::loadModelForAnalysis(project, positiveInteger(args, "run", 0),
                                      args.value("checkpoint"), analysisDevice(args));
}

std::vector<std::string> splitOn(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::vector<std::string> bagWords(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

engine::CorpusSplit readSplit(const engine::LoadedModel& loaded, const std::string& path) {
  const auto format = engine::resolveCorpusFormat(
      loaded.project.hasData ? loaded.project.data.format : engine::CorpusFormat::Auto, path);
  return engine::loadSplit(path, format, loaded.vocabulary);
}

std::vector<int64_t> idsOf(const engine::TokenStream& tokens) {
  std::vector<int64_t> ids(static_cast<size_t>(tokens.size()));
  if (!ids.empty()) tokens.copy(0, tokens.size(), ids.data());
  return ids;
}

int scoreText(const CommandLine& args, std::ostream& out, std::ostream& err) {
  if (args.has("text") == args.has("file")) {
    err << "mrnn score: give the text with exactly one of --text TEXT or --file F\n";
    return 2;
  }
  const std::string text =
      args.has("text") ? args.value("text") : readTextToScore(args.value("file"));
  auto loaded = load(args, args.positional()[1]);
  CommandThreads threads(loaded.project.training.threads, "scoring", err);
  const auto format = args.has("json")  ? engine::TextScoreFormat::Json
                      : args.has("csv") ? engine::TextScoreFormat::Csv
                                        : engine::TextScoreFormat::Table;
  engine::TextScoreWriter writer(out, format);
  const auto totals = engine::scoreTextStreamed(
      *loaded.model, loaded.vocabulary, text, args.value("context"),
      [&writer](engine::SymbolScore&& symbol) { writer.symbol(symbol); }, threads.job());
  writer.finish(totals);
  return 0;
}

int debag(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto bag = bagWords(args.value("bag"));
  if (args.value("left").empty() || bag.empty()) {
    err << "mrnn score debag: --left TEXT and --bag \"w1 w2 ...\" are required\n";
    return 2;
  }
  engine::DebagOptions options;
  options.beamWidth = positiveInteger(args, "beam", options.beamWidth);
  auto loaded = load(args, args.positional()[2]);
  CommandThreads threads(loaded.project.training.threads, "scoring", err);
  const auto result = engine::debag(*loaded.model, loaded.vocabulary, args.value("left"), bag,
                                    args.value("right"), options, threads.job());
  const auto top = static_cast<size_t>(
      positiveInteger(args, "top", args.has("json") || args.has("csv") ? 0 : 10));
  if (args.has("json")) {
    engine::writeDebagJson(out, result, top);
  } else if (args.has("csv")) {
    engine::writeDebagCsv(out, result, top);
  } else {
    out << (result.exhaustive ? "all " : "beam search, ") << result.scored << " orderings scored; "
        << "the true order ranks "
        << (result.trueRank > 0 ? std::to_string(result.trueRank) : "outside the beam")
        << " (log p = " << result.trueLogProb << ")\n";
    for (size_t i = 0; i < std::min(top, result.orderings.size()); ++i) {
      out << std::setw(5) << i + 1 << "  " << std::setw(12) << result.orderings[i].logProb << "  ";
      for (const auto& word : result.orderings[i].words) out << word << " ";
      out << "\n";
    }
  }
  return 0;
}

int recovery(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto projects = splitOn(args.positional()[2], ',');
  if (projects.empty() || !args.has("file")) {
    err << "mrnn analyze recovery: needs <project.yaml>[,<project2.yaml>...] and --file F\n";
    return 2;
  }
  if (projects.size() > 1 && (args.has("run") || args.has("checkpoint"))) {
    err << "mrnn analyze recovery: --run and --checkpoint choose one model; with several "
           "projects each uses its newest run\n";
    return 2;
  }
  engine::RecoveryOptions options;
  options.topFraction = numberOption(args, "top", options.topFraction, 1e-9, 1.0);
  options.offsets = positiveInteger(args, "offsets", options.offsets);
  std::vector<engine::LoadedModel> loaded;
  for (const auto& project : projects) loaded.push_back(load(args, project));
  std::vector<engine::LanguageModel*> models;
  std::vector<const engine::Vocabulary*> vocabularies;
  for (auto& model : loaded) {
    models.push_back(model.model.get());
    vocabularies.push_back(&model.vocabulary);
  }
  const auto split = readSplit(loaded.front(), args.value("file"));
  CommandThreads threads(loaded.front().project.training.threads, "scoring", err);
  const auto table =
      engine::surprisalRecovery(models, vocabularies, idsOf(split.tokens), options, threads.job());
  if (args.has("json")) {
    engine::writeRecoveryJson(out, table, projects);
  } else if (args.has("csv")) {
    engine::writeRecoveryCsv(out, table, projects);
  } else {
    out << std::fixed << std::setprecision(4) << table.surprising << " surprising positions of "
        << table.positions << " (top " << table.topFraction * 100 << "% by mean loss), nats:\n";
    for (size_t m = 0; m < projects.size(); ++m) {
      out << projects[m] << "\n  surprising " << table.surprisingMean[m];
      for (size_t k = 0; k < table.offsetMean[m].size(); ++k) {
        out << "  +" << k + 1 << " " << table.offsetMean[m][k];
      }
      out << "  overall " << table.overallMean[m] << "\n";
    }
  }
  return 0;
}

int mask(const CommandLine& args, std::ostream& out, std::ostream& err) {
  if (!args.has("file")) {
    err << "mrnn analyze mask: --file F is required\n";
    return 2;
  }
  auto loaded = load(args, args.positional()[2]);
  engine::MaskingOptions options;
  options.pMax = numberOption(args, "p-max", options.pMax, 0.0, 1.0);
  options.pStep = numberOption(args, "p-step", options.pStep, 1e-6, 1.0);
  options.runs = positiveInteger(args, "runs", options.runs);
  options.seed = static_cast<uint64_t>(positiveInteger(args, "seed", 1));
  options.eval.batch = loaded.project.evaluation.batchSize;
  options.eval.bptt = loaded.project.evaluation.bptt;
  // Which curves: one layer, all layers at once, or (default) each layer and then all.
  std::vector<std::optional<size_t>> selections;
  const std::string layer = args.value("layer");
  if (layer == "all") {
    selections.push_back(std::nullopt);
  } else if (args.has("layer")) {
    const auto n = static_cast<size_t>(positiveInteger(args, "layer", 1));
    if (n > loaded.model->layerCount()) {
      err << "mrnn analyze mask: --layer " << n << ": the model has " << loaded.model->layerCount()
          << " layers\n";
      return 1;
    }
    selections.push_back(n - 1);
  } else {
    for (size_t l = 0; l < loaded.model->layerCount(); ++l) selections.push_back(l);
    selections.push_back(std::nullopt);
  }
  const auto split = readSplit(loaded, args.value("file"));
  CommandThreads threads(loaded.project.training.threads, "scoring", err);
  std::vector<engine::MaskingCurve> curves;
  for (const auto& selection : selections) {
    options.layer = selection;
    curves.push_back(engine::featureMasking(*loaded.model, split, options, threads.job()));
  }
  if (args.has("json")) {
    engine::writeMaskingJson(out, curves);
  } else {
    engine::writeMaskingCsv(out, curves);  // the table is the readable form too
  }
  return 0;
}

}  // namespace

int runScoreCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const bool isDebag = words.size() >= 2 && words[1] == "debag";
  const std::vector<std::string> known =
      isDebag ? std::vector<std::string>{"run",  "checkpoint", "left", "bag", "right",
                                         "beam", "top",        "json", "csv", "device"}
              : std::vector<std::string>{"run",     "checkpoint", "text", "file",
                                         "context", "json",       "csv",  "device"};
  const auto unknown = args.unknownOptions(known);
  if (!unknown.empty() || words.size() != (isDebag ? 3u : 2u) ||
      (args.has("json") && args.has("csv"))) {
    err << "usage: mrnn score <project.yaml> [--run ID | --checkpoint PATH] (--text TEXT | "
           "--file F)\n                  [--context TEXT] [--json | --csv] "
           "[--device cpu|cuda|cuda:N]\n"
           "       mrnn score debag <project.yaml> [--run ID | --checkpoint PATH] --left TEXT\n"
           "                  --bag \"w1 w2 ...\" [--right TEXT] [--beam N] [--top N] "
           "[--json | --csv]\n                  [--device cpu|cuda|cuda:N]\n";
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  // UsageError (exit 2) and other failures (exit 1) are reported by main().
  return isDebag ? debag(args, out, err) : scoreText(args, out, err);
}

int runScoringAnalysis(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const bool isRecovery = words.size() >= 2 && words[1] == "recovery";
  const std::vector<std::string> known =
      isRecovery
          ? std::vector<std::string>{"run",     "checkpoint", "file", "top",
                                     "offsets", "json",       "csv",  "device"}
          : std::vector<std::string>{"run",  "checkpoint", "file", "layer", "p-max", "p-step",
                                     "runs", "seed",       "json", "csv",   "device"};
  const auto unknown = args.unknownOptions(known);
  if (!unknown.empty() || words.size() != 3 || (args.has("json") && args.has("csv"))) {
    err << "usage: mrnn analyze recovery <project.yaml>[,<project2.yaml>...] --file F "
           "[--top 0.1]\n                  [--offsets 4] [--json | --csv] "
           "[--device cpu|cuda|cuda:N]\n"
           "       mrnn analyze mask <project.yaml> --file F [--layer N|all] [--p-max 0.5]\n"
           "                  [--p-step 0.05] [--runs 5] [--seed S] [--json | --csv]\n"
           "                  [--device cpu|cuda|cuda:N]\n";
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  return isRecovery ? recovery(args, out, err) : mask(args, out, err);
}

}  // namespace mrnn::app
