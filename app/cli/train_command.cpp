#include "train_command.h"

#include <ostream>

#include "engine/config/project_file.h"
#include "engine/store/run_catalogue.h"
#include "option_values.h"
#include "terminal_training.h"

namespace mrnn::app {
namespace {

// The checkpoint `mrnn resume` continues from: --checkpoint, or --run's latest, or the
// newest run that did not finish.
std::string resumeCheckpoint(const CommandLine& args, const engine::Project& project) {
  if (args.has("checkpoint")) return args.value("checkpoint");
  return engine::RunCatalogue(project.folder).checkpointToResume(positiveInteger(args, "run", 0));
}

}  // namespace

int runTrain(const CommandLine& args, bool resume, std::ostream& out, std::ostream& err) {
  const auto unknown = args.unknownOptions({"max-steps", "epochs", "threads", "run", "checkpoint"});
  if (!unknown.empty() || args.positional().size() != 2) {
    err << "usage: mrnn " << (resume ? "resume" : "train")
        << " <project.yaml> [--max-steps N] [--epochs N] [--threads N]"
        << (resume ? " [--run ID | --checkpoint PATH]" : "") << "\n";
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  // A ConfigError reaches main(), which prints it (file, line, key) and exits 1.
  engine::Project project = engine::loadProject(args.positional()[1]);
  if (args.has("max-steps")) project.training.maxSteps = positiveInteger(args, "max-steps", 0);
  if (args.has("epochs")) project.training.epochs = positiveInteger(args, "epochs", 1);
  if (args.has("threads")) project.training.threads = static_cast<int>(threadsOption(args));
  const std::string from = resume ? resumeCheckpoint(args, project) : "";

  TerminalTrainingOptions options;
  options.resumeFrom = from;
  const TerminalTrainingResult result = trainInTerminal(project, options, out, err);
  const auto& outcome = result.outcome;
  if (outcome.failed) return 1;
  out << "run " << outcome.runId << ", checkpoint " << outcome.latestCheckpoint << "\n";
  return 0;
}

}  // namespace mrnn::app
