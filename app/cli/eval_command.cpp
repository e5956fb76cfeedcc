#include "eval_command.h"

#include <torch/torch.h>

#include <iomanip>
#include <ostream>

#include "analysis_device.h"
#include "command_threads.h"
#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/config/project_file.h"
#include "engine/data/corpus.h"
#include "engine/data/long_range_problem.h"
#include "engine/models/language_model.h"
#include "engine/runtime/machine_resources.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/text_format.h"
#include "engine/training/checkpoint.h"
#include "engine/training/evaluator.h"
#include "engine/training/training_data.h"
#include "option_values.h"

namespace mrnn::app {
namespace {

struct Row {
  std::string method;
  engine::LossFigures figures;
};

void printJson(std::ostream& out, const std::string& checkpoint, const std::string& split,
               const std::vector<Row>& rows, double temperature) {
  out << std::setprecision(10) << "{\n  \"checkpoint\": " << engine::jsonString(checkpoint)
      << ",\n  \"split\": \"" << split << "\",\n  \"temperature\": " << temperature
      << ",\n  \"results\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& f = rows[i].figures;
    // jsonNumber: an overflowing word perplexity is null, never a bare inf.
    out << "    {\"method\": \"" << rows[i].method << "\", \"nats\": " << engine::jsonNumber(f.nats)
        << ", \"bits_per_symbol\": " << engine::jsonNumber(f.bitsPerSymbol)
        << ", \"perplexity\": " << engine::jsonNumber(f.perplexity)
        << ", \"bits_per_word\": " << engine::jsonNumber(f.bitsPerWord)
        << ", \"word_perplexity\": " << engine::jsonNumber(f.wordPerplexity)
        << ", \"symbols\": " << f.symbols << ", \"words\": " << f.words
        << ", \"read_streams\": " << f.readingStreams << "}" << (i + 1 < rows.size() ? "," : "")
        << "\n";
  }
  out << "  ]\n}\n";
}

// A long-range problem's held-out sequences, scored as the trainer scores them: the loss and
// the share of sequences wrong. The text-stream methods (dynamic evaluation, MC dropout, a
// temperature) have no meaning for them and are refused.
int evaluateProblem(const engine::Project& project, engine::Checkpoint& checkpoint,
                    const std::string& splitName, const torch::Device& device,
                    const CommandLine& args, std::ostream& out, std::ostream& err) {
  for (const char* option : {"dynamic", "mc", "tune-temperature", "max-symbols"}) {
    if (args.has(option)) {
      err << "mrnn: --" << option << " reads a text stream; "
          << engine::syntheticTaskName(project.data.synthetic)
          << " is a long-range problem, scored sequence by sequence\n";
      return 2;
    }
  }
  const engine::TrainingData data(project, [](const std::string&) {});
  checkpoint.checkCompatible(project.model, data.vocabulary());
  engine::LanguageModel model(project.model, data.vocabulary().size());
  checkpoint.loadModel(model);
  engine::placeForAnalysis(model, device);
  CommandThreads threads(project.training.threads, "evaluating", err);
  engine::EvalOptions options;
  options.batch = project.evaluation.batchSize;
  options.device = device;
  const auto split = splitName == "valid" ? engine::TrainingData::HeldOut::Valid
                                          : engine::TrainingData::HeldOut::Test;
  const engine::LossFigures figures = data.evaluate(split, model, options, threads.job());
  if (args.has("json")) {
    out << std::setprecision(10) << "{\n  \"checkpoint\": " << engine::jsonString(checkpoint.path())
        << ",\n  \"split\": \"" << splitName
        << "\",\n  \"loss\": " << engine::jsonNumber(figures.nats)
        << ",\n  \"error_rate\": " << engine::jsonNumber(figures.errorRate)
        << ",\n  \"sequences\": " << figures.sequences;
    if (!figures.answerErrorRates.empty()) {
      out << ",\n  \"answer_error_rates\": [";
      for (size_t i = 0; i < figures.answerErrorRates.size(); ++i) {
        out << (i ? ", " : "") << engine::jsonNumber(figures.answerErrorRates[i]);
      }
      out << "]";
    }
    out << ",\n  \"solved\": "
        << (engine::problemSolved(figures.errorRate, figures.sequences) ? "true" : "false")
        << "\n}\n";
    return 0;
  }
  out << "checkpoint " << checkpoint.path() << ", " << splitName << " sequences of "
      << engine::syntheticTaskName(project.data.synthetic)
      << " (T = " << project.data.problem.length << ")\n"
      << "loss " << std::setprecision(4) << figures.nats << " per scored step, "
      << engine::problemVerdict(figures.errorRate, figures.sequences) << "\n";
  if (!figures.answerErrorRates.empty()) {
    out << "wrong at each answer step, in order:" << std::fixed << std::setprecision(1);
    for (const double rate : figures.answerErrorRates) out << " " << 100.0 * rate << "%";
    out << "\n";
  }
  return 0;
}

}  // namespace

int runEval(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto unknown = args.unknownOptions({"run", "checkpoint", "split", "dynamic", "mc",
                                            "tune-temperature", "max-symbols", "json", "device"});
  if (!unknown.empty() || args.positional().size() != 2) {
    err << "usage: mrnn eval <project.yaml> [--run ID | --checkpoint PATH] [--split valid|test]\n"
           "                 [--dynamic] [--mc N] [--tune-temperature] [--max-symbols N] "
           "[--json]\n"
           "                 [--device cpu|cuda|cuda:N]\n";
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  const std::string splitName = args.value("split", "test");
  if (splitName != "valid" && splitName != "test") {
    err << "mrnn: --split is 'valid' or 'test', not '" << splitName << "'\n";
    return 2;
  }
  const torch::Device device = analysisDevice(args);
  // A ConfigError reaches main(), which prints it (file, line, key) and exits 1.
  engine::Project project = engine::loadProject(args.positional()[1]);
  if (!project.hasData) {
    err << "mrnn: " << args.positional()[1] << " has no 'data:' section to evaluate on\n";
    return 1;
  }
  engine::Checkpoint checkpoint = [&] {
    const std::string path = args.has("checkpoint")
                                 ? args.value("checkpoint")
                                 : engine::RunCatalogue(project.folder)
                                       .checkpointToAnalyse(positiveInteger(args, "run", 0));
    return engine::Checkpoint::openOfRun(path, project.folder);
  }();
  // The run's model as it trained (an experiment's trial at its own size, a run from before
  // an edit): the project gives the data and the evaluation settings.
  project.model = checkpoint.modelAsTrained(project.model);
  if (engine::isLongRangeProblem(project.data.synthetic)) {
    return evaluateProblem(project, checkpoint, splitName, device, args, out, err);
  }
  const engine::Corpus corpus =
      engine::loadCorpus(project.data, project.model.input.level, project.folder);
  checkpoint.checkCompatible(project.model, corpus.vocabulary);
  engine::LanguageModel model(project.model, corpus.vocabulary.size());
  checkpoint.loadModel(model);
  engine::placeForAnalysis(model, device);
  CommandThreads threads(project.training.threads, "evaluating", err);

  const engine::CorpusSplit& split = splitName == "valid" ? corpus.valid : corpus.test;
  const engine::EvaluationConfig& config = project.evaluation;
  engine::EvalOptions options;
  options.batch = config.batchSize;
  options.bptt = config.bptt;
  options.maxSymbols = positiveInteger(args, "max-symbols", 0);
  options.device = device;

  std::vector<Row> rows;
  if (args.has("tune-temperature") || config.tuneTemperature) {
    const auto tuned =
        engine::tuneTemperature(model, corpus.valid, options, config.temperatureMin,
                                config.temperatureMax, config.temperatureSteps, threads.job());
    options.temperature = tuned.first;
  }
  rows.push_back({"static", engine::evaluateStatic(model, split, options, threads.job())});
  const int64_t mc = boundedInteger(args, "mc", config.mcSamples, 1, engine::kMaxMcSamples);
  if (mc > 0) {
    engine::EvalOptions sampled = options;
    sampled.mcSamples = mc;
    rows.push_back({"mc-dropout x" + std::to_string(mc),
                    engine::evaluateStatic(model, split, sampled, threads.job())});
  }
  if (args.has("dynamic") || config.dynamic.enabled) {
    const std::string variant =
        config.dynamic.variant == engine::DynamicEvalVariant::Sgd ? "dynamic-sgd" : "dynamic-rms";
    rows.push_back(
        {variant, engine::evaluateDynamic(
                      model, split, corpus.train,
                      engine::withTrainingBatch(config.dynamic, project.training.batchSize),
                      options, threads.job())});
  }

  if (args.has("json")) {
    printJson(out, checkpoint.path(), splitName, rows, options.temperature);
    return 0;
  }
  const int64_t symbols = split.tokens.size();
  out << "checkpoint " << checkpoint.path() << ", " << splitName << " split, ";
  if (options.maxSymbols > 0 && options.maxSymbols < symbols) {
    out << "its first " << options.maxSymbols << " of " << symbols << " symbols";
  } else {
    out << symbols << " symbols";
  }
  out << ", temperature " << options.temperature << "\n";
  out << std::left << std::setw(20) << "method" << std::right << std::setw(12) << "bits/sym"
      << std::setw(12) << "perplexity" << std::setw(12) << "bits/word" << std::setw(14)
      << "word ppl"
      << "\n";
  for (const auto& row : rows) {
    const auto& f = row.figures;
    // A space before each figure: columns stay apart even when one outgrows its width.
    out << std::left << std::setw(20) << row.method << std::right << ' ' << std::setw(11)
        << engine::tableFigure(f.bitsPerSymbol, 4) << ' ' << std::setw(11)
        << engine::tableFigure(f.perplexity, 4) << ' ' << std::setw(11)
        << engine::tableFigure(f.bitsPerWord, 4) << ' ' << std::setw(13)
        << engine::tableFigure(f.wordPerplexity, 2) << "\n";
  }
  // The road the exact figure took: a run's recorded test figure says the same.
  const int64_t streams = rows.front().figures.readingStreams;
  if (streams == 1) out << "static: the text read as one stream\n";
  if (streams > 1) out << "static: " << streams << " parallel streams stitched into one\n";
  return 0;
}

}  // namespace mrnn::app
