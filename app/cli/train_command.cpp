#include "train_command.h"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "engine/config/project_file.h"
#include "engine/store/run_catalogue.h"
#include "engine/training/training_run.h"
#include "option_values.h"

namespace mrnn::app {
namespace {

std::atomic<bool> interrupted{false};
std::atomic<int> interruptSignal{0};

extern "C" void onInterrupt(int signal) {
  interruptSignal = signal;
  interrupted = true;
}

// Ctrl-C (SIGINT), `kill` / `timeout` / systemd (SIGTERM) and a closed terminal (SIGHUP) all
// end a run the same way: after the current step, with a checkpoint and the run "stopped".
// The previous handlers come back when the run is over.
class StopSignals {
 public:
  StopSignals() {
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &action, &previous_[i]);
    // Writing to a closed terminal must not kill the process before its checkpoint.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &previousPipe_);
  }
  ~StopSignals() {
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
    sigaction(SIGPIPE, &previousPipe_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
  struct sigaction previousPipe_ {};
};

const char* signalName(int signal) {
  switch (signal) {
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "Ctrl-C";
  }
}

std::string duration(double seconds) {
  const auto total = static_cast<int64_t>(seconds + 0.5);
  std::ostringstream out;
  if (total >= 3600) out << total / 3600 << "h";
  out << std::setw(total >= 3600 ? 2 : 1) << std::setfill('0') << (total / 60) % 60 << "m"
      << std::setw(2) << std::setfill('0') << total % 60 << "s";
  return out.str();
}

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

  interrupted = false;
  const StopSignals signals;
  engine::TrainingRun run(project);
  run.start(from);
  const bool terminal = ::isatty(STDOUT_FILENO) != 0;
  bool stopping = false;
  int64_t lastPrinted = 0;
  while (true) {
    if (interrupted && !stopping) {
      stopping = true;
      out << (terminal ? "\n" : "") << signalName(interruptSignal)
          << ": stopping after this step; a checkpoint will be saved\n";
      run.stop();
    }
    const auto event = run.events().pop(std::chrono::milliseconds(100));
    if (!event) {
      if (!run.isRunning()) break;
      continue;
    }
    if (const auto* step = std::get_if<engine::StepEvent>(&*event)) {
      // A line per 50 steps in a log, a refreshing line on a terminal.
      if (!terminal && step->step - lastPrinted < 50 && step->step != 1) continue;
      lastPrinted = step->step;
      out << (terminal ? "\r" : "") << "epoch " << std::fixed << std::setprecision(2) << step->epoch
          << "  step " << step->step << "  loss " << std::setprecision(4) << step->loss
          << "  bits/sym " << step->bitsPerSymbol << "  " << std::setprecision(0)
          << step->symbolsPerSecond << " sym/s  ETA " << duration(step->etaSeconds)
          << (terminal ? "   " : "\n") << std::flush;
    } else if (const auto* phase = std::get_if<engine::PhaseEvent>(&*event)) {
      // A long validation or test on a terminal: its progress on the step line.
      if (terminal) {
        out << "\r" << phase->phase << " " << std::setprecision(0) << 100.0 * phase->fraction << "%"
            << std::string(40, ' ') << std::flush;
      }
    } else if (const auto* valid = std::get_if<engine::ValidationEvent>(&*event)) {
      out << (terminal ? "\n" : "") << "validation at step " << valid->step << ": "
          << std::setprecision(4) << valid->figures.bitsPerSymbol << " bits/symbol, perplexity "
          << valid->figures.perplexity;
      if (valid->figures.words > 0) out << ", " << valid->figures.bitsPerWord << " bits/word";
      out << (valid->best ? "  (best)" : "") << "\n";
    } else if (const auto* log = std::get_if<engine::LogEvent>(&*event)) {
      out << (terminal ? "\n" : "") << log->message << "\n";
    } else if (const auto* finished = std::get_if<engine::FinishedEvent>(&*event)) {
      out << (terminal ? "\n" : "") << (finished->stopped ? "stopped" : "finished") << " at step "
          << finished->step << " after " << duration(finished->wallSeconds) << std::setprecision(4);
      if (finished->bestValid > 0) {
        out << "; best validation " << finished->bestValid << " bits/symbol";
      } else {
        out << "; not validated yet";
      }
      if (!finished->stopped) out << ", test " << finished->test << " bits/symbol";
      out << "\n";
    } else if (const auto* failed = std::get_if<engine::FailedEvent>(&*event)) {
      err << (terminal ? "\n" : "");
      if (failed->runId == 0) {
        err << "mrnn: training could not start: " << failed->reason << "\n";
      } else {
        err << "mrnn: run " << failed->runId << " failed at step " << failed->step << ": "
            << failed->reason << "\n";
      }
    }
  }
  run.wait();
  const auto& outcome = run.outcome();
  if (outcome.failed) return 1;
  out << "run " << outcome.runId << ", checkpoint " << outcome.latestCheckpoint << "\n";
  return 0;
}

}  // namespace mrnn::app
