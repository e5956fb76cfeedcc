#include "train_command.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "engine/config/device_name.h"
#include "engine/config/project_file.h"
#include "engine/devices/compute_device.h"
#include "engine/distributed/c10d_collective.h"
#include "engine/distributed/rank_environment.h"
#include "engine/runtime/machine_resources.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/training/checkpoint.h"
#include "engine/training/data_parallel.h"
#include "engine/training/resumed_training.h"
#include "option_values.h"
#include "rank_launcher.h"
#include "terminal_training.h"

namespace mrnn::app {
namespace {

// The checkpoint `mrnn resume` continues from: --checkpoint, or --run's latest, or the
// newest run that did not finish. A latest checkpoint missing or damaged is said before
// training starts, with the option that resumes from the run's best one when that is whole.
std::string resumeCheckpoint(const CommandLine& args, const engine::Project& project) {
  if (args.has("checkpoint")) return args.value("checkpoint");
  const engine::ResumePoint point =
      engine::RunCatalogue(project.folder).resumePoint(positiveInteger(args, "run", 0));
  if (!point.checkpoint.empty()) return point.checkpoint;
  std::string message = point.latestProblem;
  if (point.best) {
    message += "; --checkpoint " + point.best->path + " resumes run " +
               std::to_string(point.runId) + " from its best checkpoint (step " +
               std::to_string(point.best->step) + "), training the steps after it again";
  } else {
    message += "; run " + std::to_string(point.runId) + " has no whole checkpoint to resume from";
  }
  throw std::runtime_error(message);
}

// This command again, for the ranks `--nproc` starts (without --nproc, --threads, --timeout:
// the launcher gives each rank its own).
std::vector<std::string> rankArguments(const CommandLine& args, bool resume,
                                       const std::string& from) {
  std::vector<std::string> out{resume ? "resume" : "train", args.positional()[1]};
  for (const char* option : {"max-steps", "max-seconds", "epochs", "device"}) {
    if (args.has(option)) {
      out.push_back(std::string("--") + option);
      out.push_back(args.value(option));
    }
  }
  // Every rank resumes the same checkpoint, chosen once here.
  if (resume) {
    out.push_back("--checkpoint");
    out.push_back(from);
  }
  return out;
}

// torchrun and srun show every rank all of a machine's GPUs: each rank keeps the one of its
// local rank (before anything starts CUDA), so that device `cuda` is its own. A launcher that
// already gave each rank one GPU (`--nproc`, Slurm's --gpus-per-task) is left as it is.
void useLocalRanksGpu(const engine::RankEnvironment& environment) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  std::vector<std::string> devices;
  if (visible && *visible) {
    std::string entry;
    for (const char* c = visible;; ++c) {
      if (*c == ',' || *c == '\0') {
        if (!entry.empty()) devices.push_back(entry);
        entry.clear();
        if (*c == '\0') break;
      } else {
        entry += *c;
      }
    }
    if (devices.size() <= 1) return;
  } else {
    for (int d = 0; d < environment.localSize; ++d) devices.push_back(std::to_string(d));
  }
  const auto mine = static_cast<size_t>(environment.localRank) % devices.size();
  ::setenv("CUDA_VISIBLE_DEVICES", devices[mine].c_str(), 1);
}

}  // namespace

int runTrain(const CommandLine& args, bool resume, std::ostream& out, std::ostream& err) {
  const auto unknown = args.unknownOptions({"max-steps", "max-seconds", "epochs", "threads", "run",
                                            "checkpoint", "nproc", "timeout", "device"});
  if (!unknown.empty() || args.positional().size() != 2) {
    err << "usage: mrnn " << (resume ? "resume" : "train")
        << " <project.yaml> [--max-steps N] [--epochs N] [--max-seconds S] [--threads N]"
           " [--nproc N]"
           " [--timeout SECONDS] [--device cpu|cuda|cuda:N]"
        << (resume ? " [--run ID | --checkpoint PATH]" : "") << "\n";
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  // A ConfigError reaches main(), which prints it (file, line, key) and exits 1.
  engine::Project project = engine::loadProject(args.positional()[1]);
  // A new run trains for the length given here; a resumed one keeps its own unless given one.
  engine::RunLength length;
  // The project check's ranges: a run never holds a length its own settings would refuse.
  if (args.has("max-steps")) {
    length.maxSteps = boundedInteger(args, "max-steps", 0, 1, engine::kMaxRunSteps);
  }
  if (args.has("epochs"))
    length.epochs = boundedInteger(args, "epochs", 1, 1, engine::kMaxRunEpochs);
  if (args.has("max-seconds")) {
    length.maxSeconds =
        static_cast<double>(boundedInteger(args, "max-seconds", 1, 1, engine::kMaxRunSeconds));
  }
  if (!resume) engine::applyRunLength(project.training, length);
  if (args.has("threads")) project.training.threads = static_cast<int>(threadsOption(args));
  if (args.has("device")) project.training.device = deviceOption(args);
  const int timeout = static_cast<int>(boundedInteger(args, "timeout", 60, 1, kMaxRankTimeout));
  const std::string from = resume ? resumeCheckpoint(args, project) : "";

  const auto environment =
      engine::rankEnvironment([](const char* name) { return std::getenv(name); });
  // A device this machine lacks is refused here, naming the flag, before anything starts.
  // Not in a rank: it must set CUDA_VISIBLE_DEVICES before anything asks CUDA.
  if (args.has("device") && !environment) {
    engine::resolveComputeDevice(project.training.device, "--device");
  }
  const int64_t nproc = boundedInteger(args, "nproc", 1, 1, engine::kMaxThreads);
  if (nproc > 1) {
    if (environment) throw UsageError("--nproc starts ranks itself; this process already is one");
    // Refused here once, rather than by every rank.
    engine::streamShard(project.training.batchSize, 0, static_cast<int>(nproc));
    if (resume) engine::Checkpoint::open(from);  // missing or corrupt
    RankLaunch launch;
    launch.arguments = rankArguments(args, resume, from);
    launch.ranks = static_cast<int>(nproc);
    launch.threadsPerRank = project.training.threads > 0
                                ? project.training.threads
                                : std::max(1, engine::hardwareThreads() / static_cast<int>(nproc));
    launch.timeoutSeconds = timeout;
    launch.oneGpuPerRank = engine::namesCudaDevice(project.training.device);
    launch.checkpointFolder = engine::RunPaths::checkpoints(project.folder);
    return launchRanks(launch, out, err);
  }

  TerminalTrainingOptions options;
  options.resumeFrom = from;
  if (resume) options.length = length;
  std::unique_ptr<engine::C10dCollective> collective;
  if (environment) {
    if (engine::namesCudaDevice(project.training.device)) {
      useLocalRanksGpu(*environment);
      project.training.device = "cuda";  // the one GPU this rank now sees
    }
    // Threads 0 follows the load for one process; ranks share the machine evenly instead.
    if (project.training.threads <= 0) {
      project.training.threads = std::max(1, engine::hardwareThreads() / environment->localSize);
    }
    options.quiet = environment->rank > 0;
    options.errorPrefix = "rank " + std::to_string(environment->rank) + ": ";
    try {
      collective = std::make_unique<engine::C10dCollective>(
          *environment, std::chrono::seconds(timeout),
          engine::namesCudaDevice(project.training.device));
    } catch (const engine::RankFailure& error) {
      err << "mrnn: " << options.errorPrefix << error.what() << "\n";
      return 1;
    }
    if (environment->rank == 0) {
      out << "rank 0 of " << environment->size << " (" << environment->launcher << ", "
          << collective->backend() << ", " << project.training.threads
          << (project.training.threads == 1 ? " thread" : " threads") << " per rank)\n";
    }
    options.collective = collective.get();
  }
  const TerminalTrainingResult result = trainInTerminal(project, options, out, err);
  const auto& outcome = result.outcome;
  if (outcome.failed) return 1;
  if (!options.quiet && outcome.runId > 0) {
    out << "run " << outcome.runId << ", checkpoint " << outcome.latestCheckpoint << "\n";
  }
  return 0;
}

}  // namespace mrnn::app
