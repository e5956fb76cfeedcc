#include "copy_command.h"

#include <torch/torch.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "analysis_device.h"
#include "command_threads.h"
#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/config/project_store_paths.h"
#include "engine/data/reverse_copy_task.h"
#include "engine/io/atomic_file.h"
#include "engine/models/language_model.h"
#include "engine/runtime/machine_resources.h"
#include "engine/synthetic/copy_evaluation.h"
#include "engine/synthetic/copy_output.h"
#include "option_values.h"
#include "output_option.h"

namespace mrnn::app {
namespace {

const char* kAnalyzeUsage =
    "usage: mrnn analyze copy <project.yaml>[,<project2.yaml>...] [--run ID | --checkpoint PATH]\n"
    "                         [--length L] [--examples N] [--seed S] [--batch B]\n"
    "                         [--json [FILE]] [--csv [FILE]] [--device cpu|cuda|cuda:N]\n";
const char* kDataUsage =
    "usage: mrnn data copy [<project.yaml>] --output DIR [--vocabulary V] [--length L]\n"
    "                      [--train-examples N] [--valid-examples N] [--test-examples N] "
    "[--seed S]\n";

// Lengths and counts an analysis can hold in memory: the config's own limits.
constexpr int64_t kMaxLength = 1'000'000;
constexpr int64_t kMaxTokens = int64_t{1} << 31;

std::vector<std::string> splitOn(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

void checkSize(int64_t length, int64_t examples, const std::string& what) {
  if (length > kMaxLength)
    throw UsageError("--length " + std::to_string(length) + " is more than " +
                     std::to_string(kMaxLength));
  if (examples > kMaxTokens / (2 * length + 2))
    throw UsageError(what + " of length " + std::to_string(length) + " would be more than 2^31 " +
                     "tokens; ask for fewer");
}

// The copy settings a project trains with, or the paper's defaults for a project without them.
engine::CopyTaskConfig projectCopy(const engine::Project& project) {
  return project.hasData && project.data.synthetic == engine::SyntheticTask::ReverseCopy
             ? project.data.copy
             : engine::CopyTaskConfig();
}

// Writes `text` to FILE when the option names one, saying so on `err`.
void writeOption(const CommandLine& args, const std::string& option, const std::string& text,
                 std::ostream& err) {
  if (!args.has(option) || args.value(option).empty()) return;
  writeOutputOption(args, option, text, err, {args.value("checkpoint")});
}

}  // namespace

int runCopyAnalysis(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto unknown = args.unknownOptions({"run", "checkpoint", "length", "examples", "seed",
                                            "batch", "json", "csv", "force", "device"});
  const bool jsonOut = args.has("json") && args.value("json").empty();
  const bool csvOut = args.has("csv") && args.value("csv").empty();
  if (!unknown.empty() || args.positional().size() != 3 || (jsonOut && csvOut)) {
    err << kAnalyzeUsage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    if (jsonOut && csvOut) err << "--json and --csv cannot both go to standard output\n";
    return 2;
  }
  const auto projects = splitOn(args.positional()[2], ',');
  if (projects.empty()) throw UsageError("name at least one project.yaml");
  if (projects.size() > 1 && (args.has("run") || args.has("checkpoint")))
    throw UsageError(
        "--run and --checkpoint choose one model; with several projects each uses its newest run");
  // Read the options before loading anything, so a bad value costs no model load.
  const int64_t run = positiveInteger(args, "run", 0);
  const int64_t length = positiveInteger(args, "length", 0);
  const int64_t examples = positiveInteger(args, "examples", 0);
  const int64_t seed = positiveInteger(args, "seed", 0);
  const int64_t batch = positiveInteger(args, "batch", 64);
  if (length > kMaxLength)
    throw UsageError("--length " + std::to_string(length) + " is more than " +
                     std::to_string(kMaxLength));
  const torch::Device device = analysisDevice(args);  // every model goes there

  std::vector<engine::LabelledCopyEvaluation> results;
  engine::CopyEvalOptions options;
  std::unique_ptr<CommandThreads> threads;  // the first project's training.threads
  for (size_t i = 0; i < projects.size(); ++i) {
    const auto loaded =
        engine::loadModelForAnalysis(projects[i], run, args.value("checkpoint"), device);
    if (i == 0) {
      threads = std::make_unique<CommandThreads>(loaded.project.training.threads, "scoring", err);
      // Unset options follow the first project's own copy settings, so that every model is
      // scored on the same examples (when their vocabularies agree).
      const engine::CopyTaskConfig copy = projectCopy(loaded.project);
      options.length = length > 0 ? length : copy.length;
      options.examples = examples > 0 ? examples : copy.testExamples;
      options.seed = seed > 0 ? static_cast<uint64_t>(seed) : copy.seed;
      options.batch = batch;
      checkSize(options.length, options.examples, std::to_string(options.examples) + " examples");
    }
    try {
      results.push_back(
          {projects[i], loaded.checkpoint,
           engine::evaluateReverseCopy(*loaded.model, loaded.vocabulary, options, threads->job())});
    } catch (const std::invalid_argument& error) {
      // Not a usage error (exit 1): the model cannot do the task. Say which one.
      throw std::runtime_error(projects[i] + ": " + error.what());
    }
  }
  writeOption(args, "json", engine::copyJson(results), err);
  writeOption(args, "csv", engine::copyCsv(results), err);
  if (jsonOut) {
    out << engine::copyJson(results);
  } else if (csvOut) {
    out << engine::copyCsv(results);
  } else {
    const auto& first = results.front().result;
    out << "reverse copy: " << first.examples << " fresh examples of length " << first.length
        << " (seed " << first.seed << "); teacher-forced, bits per copied token\n"
        << engine::copyTable(results);
  }
  return 0;
}

int runDataCopy(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto unknown = args.unknownOptions({"output", "vocabulary", "length", "train-examples",
                                            "valid-examples", "test-examples", "seed", "force"});
  const size_t words = args.positional().size();
  if (!unknown.empty() || words < 2 || words > 3 || args.value("output").empty()) {
    err << kDataUsage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    if (args.value("output").empty()) err << "--output DIR is required\n";
    return 2;
  }
  engine::CopyTaskConfig copy;
  if (words == 3) {
    const engine::Project project = engine::loadProject(args.positional()[2]);
    if (!project.hasData || project.data.synthetic != engine::SyntheticTask::ReverseCopy)
      throw std::runtime_error(args.positional()[2] +
                               " does not generate reverse copy data (data.synthetic: "
                               "reverse_copy); name such a project, or none for the defaults");
    copy = project.data.copy;
  }
  copy.vocabulary = positiveInteger(args, "vocabulary", copy.vocabulary);
  copy.length = positiveInteger(args, "length", copy.length);
  copy.trainExamples = positiveInteger(args, "train-examples", copy.trainExamples);
  copy.validExamples = positiveInteger(args, "valid-examples", copy.validExamples);
  copy.testExamples = positiveInteger(args, "test-examples", copy.testExamples);
  copy.seed = static_cast<uint64_t>(positiveInteger(args, "seed", static_cast<int64_t>(copy.seed)));
  if (copy.vocabulary > 10'000'000) throw UsageError("--vocabulary is at most 10000000");
  for (const int64_t count : {copy.trainExamples, copy.validExamples, copy.testExamples})
    checkSize(copy.length, count, std::to_string(count) + " examples");
  engine::OutputRules rules;
  rules.replaceAny = args.has("force");
  if (words == 3) {
    rules.guarded =
        engine::projectStorePaths(engine::loadProject(args.positional()[2]), args.positional()[2]);
  }
  for (const auto& path : engine::writeReverseCopyFiles(copy, args.value("output"), rules))
    out << "wrote " << path << "\n";
  err << "vocabulary " << copy.vocabulary << " tokens + <go> + <eos>, length " << copy.length
      << ", examples " << copy.trainExamples << " / " << copy.validExamples << " / "
      << copy.testExamples << ", seed " << copy.seed << "\n";
  return 0;
}

}  // namespace mrnn::app
