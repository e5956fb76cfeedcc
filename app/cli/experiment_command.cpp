#include "experiment_command.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <thread>

#include <torch/cuda.h>

#include "engine/config/project_store_paths.h"
#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/queue_control.h"
#include "engine/experiment/slurm_jobs.h"
#include "engine/experiment/slurm_trial.h"
#include "engine/experiment/trial_executors.h"
#include "engine/io/atomic_file.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_lock.h"
#include "option_values.h"
#include "output_option.h"
#include "stop_signals.h"
#include "terminal_training.h"

namespace mrnn::app {
namespace {

namespace fs = std::filesystem;

// Every executor's name, joined as `between` joins them and `last` the last two.
std::string executorNames(const std::string& between, const std::string& last) {
  const std::vector<engine::ExecutorKind>& kinds = engine::executorKinds();
  std::string names;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0) names += i + 1 == kinds.size() ? last : between;
    names += engine::executorKindName(kinds[i]);
  }
  return names;
}

std::string experimentUsage() {
  return "usage: mrnn experiment plan|run|status|stop|table <experiment.yaml | project folder>\n"
         "         [--experiment NAME] [--slots N] [--threads N] [--replan] [--retry-failed]\n"
         "         [--executor " +
         executorNames("|", "|") + "] [--format text|csv|json] [--output FILE]\n";
}

// --executor's kind, or nothing when it is not given. A usage error names the kinds.
std::optional<engine::ExecutorKind> executorOption(const CommandLine& args) {
  if (!args.has("executor")) return std::nullopt;
  const std::string name = args.value("executor");
  const auto kind = engine::executorKindNamed(name);
  if (!kind) {
    throw UsageError("--executor expects " + executorNames(", ", " or ") + ", got '" + name + "'");
  }
  return kind;
}

// The experiment file a command names: the file itself, or a project (folder or project.yaml)
// with --experiment NAME, or its only experiment.
std::string experimentFile(const CommandLine& args) {
  const fs::path given = args.positional()[2];
  if (!fs::exists(given))
    throw std::runtime_error("'" + given.string() + "': no such file or folder");
  if (fs::is_regular_file(given) && given.filename() != "project.yaml") return given.string();
  const fs::path project = fs::is_directory(given) ? given : given.parent_path();
  const fs::path folder = project / "experiments";
  if (args.has("experiment")) {
    const fs::path file = folder / (args.value("experiment") + ".yaml");
    if (!fs::exists(file)) throw std::runtime_error("no experiment '" + file.string() + "'");
    return file.string();
  }
  std::vector<std::string> found;
  if (fs::is_directory(folder)) {
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() == ".yaml") found.push_back(entry.path().string());
    }
  }
  if (found.size() == 1) return found.front();
  if (found.empty()) {
    throw std::runtime_error("'" + given.string() + "' is not an experiment file, and " +
                             folder.string() + " holds none (docs/experiments.md)");
  }
  std::string names;
  for (const auto& file : found) names += "\n  " + fs::path(file).stem().string();
  throw UsageError(folder.string() +
                   " holds several experiments; pick one with --experiment:" + names);
}

std::string ownExecutable() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string("mrnn") : self.string();
}

int plan(const engine::ExperimentPlan& plan, std::ostream& out) {
  out << engine::planText(plan);
  return 0;
}

int run(const CommandLine& args, const engine::ExperimentPlan& plan, const StopSignals& signals,
        std::ostream& out, std::ostream& err) {
  // The one place that picks where the trials train: --executor, else the experiment's
  // `executor:`. Everything after is the same queue whichever it is.
  const auto executor = engine::makeTrialExecutor(
      executorOption(args).value_or(plan.experiment.executor), plan.folder(), plan.experiment.name);
  if (const auto why = executor->unavailable()) {
    err << "mrnn: " << *why << "\n";
    return 1;
  }
  engine::QueueOptions options;
  options.program = ownExecutable();
  options.slotCount = positiveInteger(args, "slots", 0);
  options.threads = threadsOption(args);
  options.replan = args.has("replan");
  options.retryFailed = args.has("retry-failed");
  options.gpus =
      torch::cuda::is_available() ? static_cast<int64_t>(torch::cuda::device_count()) : 0;
  options.stop = &signals.token();
  options.log = [&out](const std::string& line) { out << line << std::endl; };
  try {
    const engine::QueueOutcome outcome = engine::runExperimentQueue(plan, options, *executor);
    if (outcome == engine::QueueOutcome::AlreadyRunning) {
      err << "mrnn: experiment '" << plan.experiment.name
          << "' is already running; `mrnn experiment status` shows it\n";
    }
    return static_cast<int>(outcome);
  } catch (const engine::ExperimentChangedError& error) {
    err << "mrnn: " << error.what() << "\n";
    return 1;
  }
}

// From the ledger and the run store, never the plan: at once, however large the experiment.
int status(const engine::Experiment& experiment, std::ostream& out) {
  const std::string folder = engine::projectFolderOf(experiment.baseFile);
  const std::string& name = experiment.name;
  const auto queue = engine::RunLock::holder(engine::ExperimentPaths::queueLock(folder, name));
  out << "experiment '" << name << "': queue "
      << (queue ? "running, " + queue->describe() : std::string("not running")) << "\n";
  const engine::ExperimentLedger ledger(folder, engine::ExperimentLedger::Access::ReadOnly);
  const auto trials = ledger.trials(name);
  if (trials.empty()) {
    out << "no trial has been queued yet; `mrnn experiment run` starts them\n";
    return 0;
  }
  std::vector<engine::RunRecord> runs;
  if (engine::RunCatalogue::exists(folder)) runs = engine::RunCatalogue(folder).runs();
  auto rows = engine::experimentProgress(
      trials, runs, [&](int64_t trial) { return engine::trialTrainedNow(folder, name, trial); },
      queue.has_value());
  // What the executors know beyond the ledger (Slurm: each job's state from squeue, as the
  // job's database is its own while it runs), whichever the trials were left with.
  for (const auto& executor : engine::allTrialExecutors(folder, name)) {
    for (const std::string& line : executor->describeTrials(rows)) out << line << "\n";
  }
  out << engine::progressText(rows);
  return 0;
}

// Trials that outlive their queue (Slurm jobs), stopped here when no queue runs. The next
// `run` collects their runs (a stopped trial saves a checkpoint first). Exit 0, or 1 with a
// message.
int stopWithoutQueue(const engine::Experiment& experiment, std::ostream& out, std::ostream& err) {
  const std::string folder = engine::projectFolderOf(experiment.baseFile);
  bool stopped = false;
  for (const auto& executor : engine::allTrialExecutors(folder, experiment.name)) {
    try {
      if (const auto said = executor->stopWithoutQueue()) {
        out << *said << "\n";
        stopped = true;
      }
    } catch (const std::exception& error) {
      err << "mrnn: " << error.what() << "\n";
      return 1;
    }
  }
  if (!stopped) out << "experiment '" << experiment.name << "' is not running\n";
  return 0;
}

// Needs no plan either: the queue's lock and what the executors left say all.
int stop(const engine::Experiment& experiment, std::ostream& out, std::ostream& err) {
  const std::string folder = engine::projectFolderOf(experiment.baseFile);
  const engine::QueueControl queue(folder, experiment.name);
  const auto holder = queue.holder();
  if (!holder) return stopWithoutQueue(experiment, out, err);
  std::string problem;
  if (!queue.stop(&problem)) {
    err << "mrnn: " << problem << "\n";
    return 1;
  }
  out << "asked the queue (" << holder->describe() << ") to stop; trials save checkpoints\n";
  // Each trial finishes its step and saves a checkpoint first: allow them time.
  for (int waited = 0; waited < 600; ++waited) {
    if (!queue.holder()) {
      out << "stopped; `mrnn experiment run` goes on from the checkpoints\n";
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  err << "mrnn: the queue has not stopped after 2 minutes; it may still be saving\n";
  return 1;
}

int table(const CommandLine& args, const engine::ExperimentPlan& plan, std::ostream& out) {
  const std::string format = args.value("format", "text");
  if (format != "text" && format != "csv" && format != "json") {
    throw UsageError("--format expects text, csv or json, got '" + format + "'");
  }
  const engine::ExperimentLedger ledger(plan.folder(), engine::ExperimentLedger::Access::ReadOnly);
  std::vector<engine::RunRecord> runs;
  if (engine::RunCatalogue::exists(plan.folder()))
    runs = engine::RunCatalogue(plan.folder()).runs();
  const auto rows = engine::experimentResults(plan, ledger.trials(plan.experiment.name), runs);
  const std::string text = format == "csv"    ? engine::resultsCsv(plan, rows)
                           : format == "json" ? engine::resultsJson(plan, rows)
                                              : engine::resultsText(plan, rows);
  if (args.has("output")) {
    writeOutputOption(args, "output", text, out, {plan.experiment.file},
                      engine::projectStorePaths(plan.base, plan.experiment.baseFile));
  } else {
    out << text;
  }
  return 0;
}

// One trial, as the queue starts it: trains (or resumes) the trial's run to its budget.
// Exit 0 done, 1 failed, 3 stopped before its budget (a signal), 4 another process has it
// (the trial, or the run database past the wait): the queue tries it again later.
int trial(const CommandLine& args, const engine::ExperimentPlan& plan, std::ostream& out,
          std::ostream& err) {
  const int64_t number = positiveInteger(args, "trial", 0);
  if (number <= 0 || number > static_cast<int64_t>(plan.trials.size())) {
    throw UsageError("--trial expects a trial number from 1 to " +
                     std::to_string(plan.trials.size()));
  }
  const int64_t index = number - 1;
  const std::string& folder = plan.folder();
  const std::string& name = plan.experiment.name;
  engine::RunLock lock;
  try {
    fs::create_directories(engine::ExperimentPaths::folder(folder, name));
    lock = engine::RunLock::acquire(engine::ExperimentPaths::trialLock(folder, name, index),
                                    "trial #" + std::to_string(number) + " of '" + name + "'");
  } catch (const engine::RunBusyError& error) {
    err << "mrnn: " << error.what() << "\n";
    return 4;
  }
  // On Slurm (--run-folder) the trial trains into its own folder and never opens the
  // project's run database, which may be on another machine: the queue's ticket says what the
  // ledger would, and the queue imports the run once this job has ended.
  const bool own = args.has("run-folder");
  const std::string runFolder = own ? args.value("run-folder") : folder;
  std::optional<engine::ExperimentLedger> ledger;
  std::optional<engine::TrialRecord> record;
  if (own) {
    const std::string path = runFolder + "/ticket";
    const engine::SlurmTicket ticket = engine::parseSlurmTicket(engine::readWholeFile(path), path);
    record = engine::TrialRecord();
    record->fingerprint = ticket.fingerprint;
    record->budget = ticket.budget;
    record->runId = ticket.run;
  } else {
    ledger.emplace(folder);
    record = ledger->trial(name, index);
  }
  if (!record) {
    err << "mrnn: trial #" << number << " is not queued; `mrnn experiment run` queues it\n";
    return 1;
  }
  if (record->fingerprint != plan.trials[static_cast<size_t>(index)].fingerprint) {
    err << "mrnn: experiment '" << name << "' changed since trial #" << number
        << " was queued; `mrnn experiment run --replan` plans the changed trials afresh\n";
    return 1;
  }
  const engine::TrialStart start = engine::decideTrialStart(runFolder, *record);
  if (start.alreadyDone) {
    out << "trial #" << number << " already reached its end (run " << record->runId << ")\n";
    return 0;
  }
  engine::Project project = plan.trials[static_cast<size_t>(index)].project;
  if (own) project = engine::slurmTrialProject(project, runFolder);
  if (args.has("threads")) project.training.threads = static_cast<int>(threadsOption(args));
  // A new run links itself to the trial with its first records (a held database keeps the
  // link waiting with them); a resumed one is the trial's already.
  if (ledger) project.trial = engine::TrialOfRun{name, index};
  TerminalTrainingOptions options;
  options.resumeFrom = start.resumeFrom;
  options.stopAtStep = record->budget;
  out << "trial #" << number << ": " << plan.trials[static_cast<size_t>(index)].label
      << (start.resumeFrom.empty() ? ", a new run" : ", resuming " + start.resumeFrom) << "\n"
      << std::flush;
  const TerminalTrainingResult result = trainInTerminal(project, options, out, err);
  if (result.outcome.failed) return result.outcome.databaseHeld ? 4 : 1;
  if (result.outcome.finished) return 0;
  if (record->budget > 0 && result.outcome.steps >= record->budget) return 0;
  return 3;
}

// An exit file replaces only an earlier one (a number on a line: a job run again), never
// another file at that name; a link, FIFO or device writeFileAtomically refuses itself.
void requireExitFileOrNone(const std::string& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) return;
  std::string text;
  if (status.st_size <= 8) text = engine::readWholeFile(path, 8);
  const bool exitCode = !text.empty() && text.back() == '\n' && text.size() >= 2 &&
                        text.find_first_not_of("0123456789") == text.size() - 1;
  if (!exitCode) {
    throw UsageError("will not write --exit-file '" + path +
                     "': it exists and is not an exit file this command wrote; name another");
  }
}

// A trial on Slurm: its exit status, written to --exit-file however it ends short of a kill,
// is how the queue learns how it ended (Slurm's own records may not be kept).
int trialWithExitFile(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const std::string path = args.value("exit-file");
  requireExitFileOrNone(path);
  const auto record = [&path, &err](int code) {
    try {
      engine::writeFileAtomically(path, std::to_string(code) + "\n");
    } catch (const std::exception& error) {
      err << "mrnn: " << error.what() << "\n";
    }
  };
  try {
    const engine::ExperimentPlan planned =
        engine::planExperiment(engine::loadExperiment(experimentFile(args)));
    const int code = trial(args, planned, out, err);
    record(code);
    return code;
  } catch (const UsageError&) {
    record(2);
    throw;
  } catch (const std::exception&) {
    record(1);
    throw;
  }
}

// Planning a large experiment takes a while: past a second, how far it came, once a second.
engine::PlanWatch planWatch(const StopSignals& signals, std::ostream* err) {
  engine::PlanWatch watch;
  watch.stop = &signals.token();
  if (err == nullptr) return watch;
  using Clock = std::chrono::steady_clock;
  struct Shown {
    Clock::time_point next = Clock::now() + std::chrono::seconds(1);
    bool any = false;
  };
  auto shown = std::make_shared<Shown>();
  watch.progress = [err, shown](const engine::JobProgress& progress) {
    const Clock::time_point now = Clock::now();
    // The last count only after earlier ones: a quick plan prints nothing.
    if (progress.fraction >= 1.0 ? !shown->any : now < shown->next) return;
    shown->any = true;
    shown->next = now + std::chrono::seconds(1);
    *err << "planning: " << progress.phase << "\n" << std::flush;
  };
  return watch;
}

}  // namespace

int runExperimentCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const std::vector<std::string> verbs{"plan", "run", "status", "stop", "table", "trial"};
  const bool known =
      words.size() == 3 && std::find(verbs.begin(), verbs.end(), words[1]) != verbs.end();
  const auto unknown =
      args.unknownOptions({"experiment", "slots", "threads", "replan", "retry-failed", "format",
                           "output", "force", "trial", "executor", "run-folder", "exit-file"});
  if (!known || !unknown.empty()) {
    err << experimentUsage();
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  const std::string& verb = words[1];
  executorOption(args);  // a usage error before the file is read, whatever the verb
  if (verb == "trial" && args.has("exit-file")) return trialWithExitFile(args, out, err);
  // A ConfigError (file, line, key) reaches main(), which prints it and exits 1.
  const engine::Experiment experiment = engine::loadExperiment(experimentFile(args));
  if (verb == "status") return status(experiment, out);
  if (verb == "stop") return stop(experiment, out, err);
  // Ctrl-C while planning stops the command as it stops the queue (a flag planning reads).
  const StopSignals signals;
  engine::ExperimentPlan planned;
  try {
    planned = engine::planExperiment(experiment, engine::projectVocabularySize,
                                     planWatch(signals, verb == "trial" ? nullptr : &err));
  } catch (const engine::PlanStopped& stopped) {
    err << "mrnn: " << signals.name() << ": " << stopped.what() << "; nothing was queued\n";
    return 3;
  }
  if (verb == "plan") return plan(planned, out);
  if (verb == "run") return run(args, planned, signals, out, err);
  if (verb == "table") return table(args, planned, out);
  return trial(args, planned, out, err);
}

}  // namespace mrnn::app
