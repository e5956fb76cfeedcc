#include "probing_command.h"

#include <ostream>
#include <stdexcept>

#include "analysis_device.h"
#include "command_threads.h"
#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/config/project_store_paths.h"
#include "engine/io/atomic_file.h"
#include "engine/models/language_model.h"
#include "engine/probing/gate_analysis.h"
#include "engine/probing/hidden_state_tree.h"
#include "engine/probing/probing_output.h"
#include "option_values.h"
#include "output_option.h"

namespace mrnn::app {
namespace {

const char* kGatesUsage =
    "usage: mrnn analyze gates <project.yaml> [--run ID | --checkpoint PATH]\n"
    "                          (--text TEXT | --file F) [--float16] [--json | --csv]\n"
    "                          [--output FILE] [--device cpu|cuda|cuda:N]\n";
const char* kTreeUsage =
    "usage: mrnn analyze tree <project.yaml> [--run ID | --checkpoint PATH]\n"
    "                         [--compare <project2.yaml>] --context TEXT [--depth 2]\n"
    "                         [--first-k 64] [--top-k 10] [--mass 0.9] [--all-layers]\n"
    "                         [--max-nodes N] [--json | --csv] [--output FILE]\n"
    "                         [--device cpu|cuda|cuda:N]\n";

engine::LoadedModel load(const CommandLine& args, const std::string& project, bool primary) {
  // --run and --checkpoint name the first model's run; the compared model uses its newest.
  // Both go on --device.
  const int64_t run = primary ? positiveInteger(args, "run", 0) : 0;
  return engine::loadModelForAnalysis(project, run, primary ? args.value("checkpoint") : "",
                                      analysisDevice(args));
}

// To --output (atomically) or to `out`.
void emit(const CommandLine& args, std::ostream& out, std::ostream& err, const std::string& text) {
  if (args.has("output")) {
    const std::string project = args.positional()[2];
    writeOutputOption(args, "output", text, err, {args.value("file"), args.value("checkpoint")},
                      engine::projectStorePaths(engine::loadProject(project), project));
  } else {
    out << text;
  }
}

int runGates(const CommandLine& args, std::ostream& out, std::ostream& err) {
  if (args.has("text") == args.has("file"))
    throw UsageError("give exactly one of --text or --file");
  const std::string text =
      args.has("text") ? args.value("text") : engine::readWholeFile(args.value("file"));
  const auto loaded = load(args, args.positional()[2], true);
  CommandThreads threads(loaded.project.training.threads, "analysing", err);
  engine::GateOptions options;
  options.float16 = args.has("float16");
  const auto report =
      engine::analyzeGates(*loaded.model, loaded.vocabulary, text, options, threads.job());
  if (args.has("json")) {
    emit(args, out, err, engine::gateReportJson(report));
  } else if (args.has("csv")) {
    emit(args, out, err, engine::gateReportCsv(report));
  } else {
    emit(args, out, err,
         "checkpoint " + loaded.checkpoint + "\n" + engine::gateStatisticsTable(report));
  }
  return 0;
}

int runTree(const CommandLine& args, std::ostream& out, std::ostream& err) {
  if (!args.has("context")) throw UsageError("--context TEXT is required");
  const std::string context = args.value("context");
  engine::TreeOptions options;
  options.depth = positiveInteger(args, "depth", options.depth);
  options.firstLevelCap = positiveInteger(args, "first-k", options.firstLevelCap);
  options.topK = positiveInteger(args, "top-k", options.topK);
  options.mass = numberOption(args, "mass", options.mass, 0.0, 1.0, false);
  options.allLayers = args.has("all-layers");
  options.maxNodes = positiveInteger(args, "max-nodes", options.maxNodes);

  std::vector<std::string> projects = {args.positional()[2]};
  if (args.has("compare")) projects.push_back(args.value("compare"));
  std::vector<engine::LabelledTree> trees;
  for (size_t i = 0; i < projects.size(); ++i) {
    const auto loaded = load(args, projects[i], i == 0);
    CommandThreads threads(loaded.project.training.threads, "analysing", err);
    trees.push_back(
        {projects[i], loaded.checkpoint,
         engine::expandTree(*loaded.model, loaded.vocabulary, context, options, threads.job())});
  }
  if (args.has("json")) {
    emit(args, out, err, engine::treeJson(context, options, trees));
  } else if (args.has("csv")) {
    emit(args, out, err, engine::treeSpreadCsv(trees));
  } else {
    emit(args, out, err, engine::treeSpreadTable(trees));
  }
  return 0;
}

}  // namespace

int runProbingAnalysis(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const bool gates = words.size() >= 2 && words[1] == "gates";
  const char* usage = gates ? kGatesUsage : kTreeUsage;
  const std::vector<std::string> known =
      gates
          ? std::vector<std::string>{"run",  "checkpoint", "text",   "file",  "float16",
                                     "json", "csv",        "output", "force", "device"}
          : std::vector<std::string>{"run",     "checkpoint", "compare", "context",    "depth",
                                     "first-k", "top-k",      "mass",    "all-layers", "max-nodes",
                                     "json",    "csv",        "output",  "force",      "device"};
  const auto unknown = args.unknownOptions(known);
  if (!unknown.empty() || words.size() != 3 || (args.has("json") && args.has("csv"))) {
    err << usage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    if (args.has("json") && args.has("csv")) err << "--json and --csv exclude each other\n";
    return 2;
  }
  // UsageError (exit 2) and other failures (exit 1) are reported by main().
  return gates ? runGates(args, out, err) : runTree(args, out, err);
}

}  // namespace mrnn::app
