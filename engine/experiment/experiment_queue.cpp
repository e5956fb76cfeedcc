#include "engine/experiment/experiment_queue.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>
#include <thread>

#include "engine/config/loss_unit.h"
#include "engine/data/long_range_problem.h"
#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/held_database.h"
#include "engine/experiment/queue_run.h"
#include "engine/experiment/trial_executor.h"
#include "engine/experiment/trial_executors.h"
#include "engine/io/atomic_file.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_lock.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

bool isHalving(const ExperimentPlan& plan) {
  return plan.experiment.search.kind == SearchKind::Halving;
}

int64_t firstBudget(const ExperimentPlan& plan) {
  return isHalving(plan) ? plan.experiment.search.rungs.front() : 0;
}

// The last line of a trial's log that says something: why a child that left no failed run
// (it could not start) ended. Only the log's end is read: a long training's log is large.
std::string lastLogLine(const std::string& path) {
  std::string tail;
  try {
    tail = readFileTail(path, ExperimentPaths::kTrialLogTailBytes);
  } catch (const std::exception&) {
    return "";  // none, or no file (a FIFO is not waited on)
  }
  std::istringstream in(tail);
  std::string line;
  std::string last;
  while (std::getline(in, line)) {
    const auto end = line.find_last_not_of(" \r\t");
    if (end == std::string::npos) continue;
    last = line.substr(0, end + 1);
  }
  const auto carriage = last.rfind('\r');
  if (carriage != std::string::npos) last = last.substr(carriage + 1);
  // The child's own prefix says nothing in a table of trials.
  const std::string prefix = "mrnn: ";
  return last.rfind(prefix, 0) == 0 ? last.substr(prefix.size()) : last;
}

std::string bits(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

// The loss unit of a ledger row's trial, from the plan (its project's output).
LossUnit unitOf(const ExperimentPlan& plan, const TrialRecord& row) {
  if (row.trial < 0 || row.trial >= static_cast<int64_t>(plan.trials.size())) return LossUnit::Bits;
  return lossUnitOf(plan.trials[static_cast<size_t>(row.trial)].project);
}

// A stored figure (bits) as the queue's lines say it: "1.2345 bits", or a real-valued
// output's "0.0889 squared error".
std::string lossText(double storedBits, LossUnit unit) {
  return bits(inLossUnit(storedBits, unit)) +
         (unit == LossUnit::SquaredError ? " squared error" : " bits");
}

}  // namespace

std::string describeTrial(const TrialRecord& trial) {
  return "trial #" + std::to_string(trial.trial + 1) + " (" + trial.label +
         (trial.seed != 1 ? ", seed " + std::to_string(trial.seed) : "") + ")";
}

TrialRecord queuedTrialRecord(const ExperimentPlan& plan, const TrialPlan& trial) {
  TrialRecord record;
  record.experiment = plan.experiment.name;
  record.trial = trial.index;
  record.configuration = trial.configuration;
  record.seed = static_cast<int64_t>(trial.seed);
  record.label = trial.label;
  record.fingerprint = trial.fingerprint;
  record.parameters = trial.parameters;
  record.rung = 0;
  record.budget = firstBudget(plan);
  record.status = TrialStatus::Queued;
  return record;
}

SlotPlan chooseSlots(const Experiment& experiment, int64_t trials, int64_t processors,
                     int64_t slotsOption, int64_t threadsOption, int64_t gpus) {
  SlotPlan plan;
  processors = std::max<int64_t>(1, processors);
  plan.count = gpus > 0          ? gpus
               : slotsOption > 0 ? slotsOption
               : experiment.slotCount > 0
                   ? experiment.slotCount
                   : std::max<int64_t>(1, std::min(processors, std::max<int64_t>(1, trials)));
  plan.threads = threadsOption > 0        ? threadsOption
                 : experiment.threads > 0 ? experiment.threads
                                          : std::max<int64_t>(1, processors / plan.count);
  return plan;
}

void syncLedger(const ExperimentPlan& plan, ExperimentLedger& ledger, bool replan,
                RunStore* store) {
  const std::string& name = plan.experiment.name;
  if (replan) {
    for (const TrialRecord& row : store ? ledger.trials(name) : std::vector<TrialRecord>{}) {
      const auto run = row.runId > 0 ? store->run(row.runId) : std::nullopt;
      if (!run || !run->note.empty()) continue;  // a note of the user's stays
      store->setNote(row.runId, "ran with an earlier plan of experiment '" + name + "' (" +
                                    describeTrial(row) + "); replanned " + utcTimestamp());
    }
    ledger.removeAll(name);
  }
  const std::vector<TrialRecord> rows = ledger.trials(name);
  std::map<int64_t, const TrialRecord*> byIndex;
  for (const TrialRecord& row : rows) byIndex[row.trial] = &row;
  // First every conflict, so that nothing changes when the queue refuses.
  for (const TrialRecord& row : rows) {
    const bool planned = row.trial < static_cast<int64_t>(plan.trials.size());
    const bool same =
        planned && plan.trials[static_cast<size_t>(row.trial)].fingerprint == row.fingerprint;
    if (!same && (row.status != TrialStatus::Queued || row.runId > 0)) {
      throw ExperimentChangedError(
          "experiment '" + name + "' changed since " + describeTrial(row) + " ran (" +
          trialStatusName(row.status) +
          (row.runId > 0 ? ", run " + std::to_string(row.runId) : "") + "): " +
          (planned ? "its configuration is not the plan's any more" : "it is no longer planned") +
          ". Run it again with --replan to plan every trial afresh (the old runs stay in the "
          "store), or undo the change");
    }
  }
  for (const TrialRecord& row : rows) {
    if (row.trial >= static_cast<int64_t>(plan.trials.size())) ledger.remove(name, row.trial);
  }
  for (const TrialPlan& trial : plan.trials) {
    const auto found = byIndex.find(trial.index);
    if (found == byIndex.end() || found->second->fingerprint != trial.fingerprint) {
      ledger.put(queuedTrialRecord(plan, trial));
    }
  }
}

int64_t recoverTrialsFromRuns(const ExperimentPlan& plan, ExperimentLedger& ledger,
                              const std::vector<RunRecord>& runs) {
  if (!ledger.trials(plan.experiment.name).empty()) return 0;
  std::map<std::string, const RunRecord*> latest;  // a trial's run is named after its project
  for (const RunRecord& run : runs) {
    const RunRecord*& slot = latest[run.name];
    if (slot == nullptr || run.id > slot->id) slot = &run;
  }
  int64_t recovered = 0;
  for (const TrialPlan& trial : plan.trials) {
    const auto found = latest.find(trial.project.name);
    if (found == latest.end()) continue;
    const RunRecord& run = *found->second;
    TrialRecord record = queuedTrialRecord(plan, trial);
    record.runId = run.id;
    if (run.status == RunStatus::Finished) record.status = TrialStatus::Done;
    if (run.status == RunStatus::Failed) {
      record.status = TrialStatus::Failed;
      record.reason = run.reason;
    }
    ledger.put(record);
    ++recovered;
  }
  return recovered;
}

bool promoteAtRungs(const ExperimentPlan& plan, ExperimentLedger& ledger,
                    const std::vector<RunRecord>& runs) {
  if (!isHalving(plan)) return false;
  const std::vector<int64_t>& rungs = plan.experiment.search.rungs;
  const std::vector<TrialRecord> rows = ledger.trials(plan.experiment.name);
  std::vector<const TrialRecord*> live;
  for (const TrialRecord& row : rows) {
    if (row.status != TrialStatus::Failed && row.status != TrialStatus::Cut) live.push_back(&row);
  }
  if (live.empty()) return false;
  int64_t rung = std::numeric_limits<int64_t>::max();
  for (const TrialRecord* row : live) rung = std::min(rung, row->rung);
  if (rung + 1 >= static_cast<int64_t>(rungs.size())) return false;
  for (const TrialRecord* row : live) {
    if (row->rung == rung && row->status != TrialStatus::Done) return false;
  }
  std::map<int64_t, double> bestOfRun;
  for (const RunRecord& run : runs) {
    if (run.bestValid) bestOfRun[run.id] = *run.bestValid;
  }
  // Mean best validation per configuration over its seeds at this rung.
  std::map<int64_t, std::pair<double, int>> sums;
  for (const TrialRecord* row : live) {
    if (row->rung != rung) continue;
    auto& sum = sums[row->configuration];
    const auto best = bestOfRun.find(row->runId);
    if (best == bestOfRun.end() || !std::isfinite(best->second)) {
      sum.first = std::numeric_limits<double>::infinity();
    } else {
      sum.first += best->second;
    }
    sum.second += 1;
  }
  std::vector<std::pair<double, int64_t>> ranked;
  for (const auto& [configuration, sum] : sums) {
    ranked.emplace_back(sum.first / sum.second, configuration);
  }
  std::sort(ranked.begin(), ranked.end());
  const auto kept = std::max<size_t>(
      1, static_cast<size_t>(
             std::ceil(static_cast<double>(ranked.size()) * plan.experiment.search.keep - 1e-9)));
  std::map<int64_t, size_t> rankOf;
  for (size_t i = 0; i < ranked.size(); ++i) rankOf[ranked[i].second] = i;
  for (const TrialRecord* row : live) {
    if (row->rung != rung) continue;
    const size_t rank = rankOf[row->configuration];
    if (rank < kept) {
      ledger.setBudget(row->experiment, row->trial, rung + 1, rungs[static_cast<size_t>(rung + 1)]);
      ledger.setStatus(row->experiment, row->trial, TrialStatus::Queued);
    } else {
      const double score = ranked[rank].first;
      ledger.setStatus(
          row->experiment, row->trial, TrialStatus::Cut,
          "cut at step " + std::to_string(rungs[static_cast<size_t>(rung)]) + ": validation " +
              (std::isfinite(score) ? lossText(score, unitOf(plan, *row)) : std::string("none")) +
              ", rank " + std::to_string(rank + 1) + " of " + std::to_string(ranked.size()) +
              " (kept " + std::to_string(kept) + ")");
    }
  }
  return true;
}

TrialStart decideTrialStart(const std::string& projectFolder, const TrialRecord& trial) {
  TrialStart start;
  if (trial.runId <= 0 || !RunCatalogue::exists(projectFolder)) return start;
  RunCatalogue catalogue(projectFolder);
  const auto run = catalogue.run(trial.runId);
  if (!run) return start;
  if (run->status == RunStatus::Finished) {
    start.alreadyDone = true;
    return start;
  }
  if (trial.budget > 0 && run->steps >= trial.budget && run->status == RunStatus::Stopped) {
    start.alreadyDone = true;
    return start;
  }
  // Its latest checkpoint, whole; else (damaged, or a disk that filled as it was written) its
  // best, whole, the steps after it trained again; else (killed before its first checkpoint)
  // nothing to continue, and a new run starts the trial.
  const ResumePoint point = catalogue.resumePoint(trial.runId);
  if (!point.checkpoint.empty()) {
    start.resumeFrom = point.checkpoint;
  } else if (point.best) {
    start.resumeFrom = point.best->path;
  }
  return start;
}

void recordTrialExit(const ExperimentPlan& plan, ExperimentLedger& ledger,
                     const RunCatalogue& catalogue, int64_t index, int code, bool stopping,
                     std::map<int64_t, int>& kills,
                     const std::function<void(const std::string&)>& log) {
  const std::string& folder = plan.folder();
  const std::string& name = plan.experiment.name;
  const auto row = ledger.trial(name, index);
  if (!row) return;
  const auto run = row->runId > 0 ? catalogue.run(row->runId) : std::nullopt;
  if (code == 0) {
    ledger.setStatus(name, index, TrialStatus::Done);
    std::string result = describeTrial(*row) + " done";
    const LossUnit unit = run ? recordedLossUnit(run->configYaml) : LossUnit::Bits;
    if (run && run->bestValid) result += ": validation " + lossText(*run->bestValid, unit);
    if (run && run->testResult && run->status == RunStatus::Finished) {
      result += ", test " + bits(inLossUnit(*run->testResult, unit));
      // A long-range problem: whether it was solved says more than its loss.
      if (run->testErrorRate) {
        char wrong[96];
        std::snprintf(wrong, sizeof wrong, ", %.1f%% of the test sequences wrong%s",
                      100.0 * *run->testErrorRate,
                      *run->testErrorRate < LongRangeProblem::kSolvedBelow ? " (solved)" : "");
        result += wrong;
      }
    }
    log(result);
    return;
  }
  const bool stoppedByUs = stopping && (code == 3 || code == 128 + SIGTERM);
  if (stoppedByUs || code == 3 || code == 4) {
    ledger.setStatus(name, index, TrialStatus::Queued);
    if (stopping) return;
    if (code == 4) {
      // Another process had its lock, or the run database was held past the wait.
      const std::string why = lastLogLine(ExperimentPaths::trialLog(folder, name, index));
      log(describeTrial(*row) + " could not go on now" + (why.empty() ? "" : " (" + why + ")") +
          "; it waits in the queue");
    } else {
      log(describeTrial(*row) + " stopped; it will go on from its checkpoint");
    }
    return;
  }
  if (code > 128 && kills[index] < 1) {
    ledger.setStatus(name, index, TrialStatus::Queued);
    ++kills[index];  // once recorded: a held database makes the queue record it again
    log(describeTrial(*row) + " was killed (signal " + std::to_string(code - 128) +
        "); it goes on from its last checkpoint");
    return;
  }
  std::string reason;
  if (run && run->status == RunStatus::Failed && !run->reason.empty()) reason = run->reason;
  if (reason.empty()) reason = lastLogLine(ExperimentPaths::trialLog(folder, name, index));
  if (code > 128) {
    reason = "killed by signal " + std::to_string(code - 128) + " twice" +
             (reason.empty() ? "" : "; its log ends: " + reason);
  }
  if (reason.empty()) reason = "its process exited with code " + std::to_string(code);
  ledger.setStatus(name, index, TrialStatus::Failed, reason);
  log(describeTrial(*row) + " failed: " + reason);
}

void checkTrialsExecutor(const ExperimentPlan& plan, const ExperimentLedger& ledger,
                         const RunStore& store, ExecutorKind executor) {
  const auto executors = allTrialExecutors(plan.folder(), plan.experiment.name);
  for (const TrialRecord& row : ledger.trials(plan.experiment.name)) {
    if (row.runId <= 0 || !store.run(row.runId)) continue;
    const auto trainer =
        std::find_if(executors.begin(), executors.end(),
                     [&](const auto& candidate) { return candidate->trained(store, row.runId); });
    if (trainer == executors.end() || (*trainer)->kind() == executor) continue;
    const ExecutorKind other = (*trainer)->kind();
    throw ExperimentChangedError(
        "experiment '" + plan.experiment.name + "': " + describeTrial(row) + " ran with the " +
        executorKindName(other) + " executor (run " + std::to_string(row.runId) + "), and the " +
        executorKindName(executor) +
        " executor cannot continue its checkpoints. Run it with --executor " +
        executorKindName(other) +
        ", or with --replan to plan every trial afresh (the old runs stay in the store)");
  }
}

std::optional<RunLock> lockQueue(const std::string& folder, const std::string& name,
                                 const std::function<void(const std::string&)>& log) {
  try {
    return RunLock::acquire(ExperimentPaths::queueLock(folder, name), "experiment '" + name + "'");
  } catch (const RunBusyError& error) {
    log(error.what());
    return std::nullopt;
  }
}

namespace {

// The ledger made the plan's, as every queue run begins, whatever its executor: trials whose
// records were lost take back their runs, the plan's changes are queued (or refused), and no
// trial that another executor trained is taken over.
void matchLedgerToPlan(const ExperimentPlan& plan, const QueueOptions& options,
                       ExperimentLedger& ledger, RunCatalogue& catalogue, ExecutorKind executor,
                       const std::function<void(const std::string&)>& log) {
  if (!options.replan) {
    if (const int64_t recovered = recoverTrialsFromRuns(plan, ledger, catalogue.runs())) {
      log("experiment '" + plan.experiment.name + "' had no queue records; " +
          std::to_string(recovered) + " trials took back their runs from the run store");
    }
  }
  syncLedger(plan, ledger, options.replan, &catalogue.store());
  checkTrialsExecutor(plan, ledger, catalogue.store(), executor);
  if (!options.retryFailed) return;
  for (const TrialRecord& row : ledger.trials(plan.experiment.name)) {
    if (row.status != TrialStatus::Failed) continue;
    ledger.setStatus(plan.experiment.name, row.trial, TrialStatus::Queued);
    log(describeTrial(row) + " failed" + (row.reason.empty() ? "" : " (" + row.reason + ")") +
        "; it trains again" +
        (row.runId > 0 ? ", from its run's last whole checkpoint when it has one" : ""));
  }
}

// The trials that may start now, in the ledger's order.
struct PendingTrials {
  std::vector<TrialRecord> ready;  // at most the executor's free slots
  bool any = false;                // some trial waits for its turn, ready or not
  bool waiting = false;            // a process left from an earlier queue run still trains one
};
PendingTrials pendingTrials(const QueueRun& queue, const TrialExecutor& executor) {
  PendingTrials found;
  const int64_t room = executor.freeSlots();
  for (const TrialRecord& row : queue.ledger.trials(queue.name())) {
    // Queued, or running with nothing of this queue training it (an earlier queue died).
    const bool pending =
        (row.status == TrialStatus::Queued || row.status == TrialStatus::Running) &&
        !executor.holds(row.trial);
    if (!pending) continue;
    found.any = true;
    if (static_cast<int64_t>(found.ready.size()) >= room) break;
    // A child of a queue that died may still be saving its checkpoint, or a Slurm job that a
    // killed queue lost track of may still train it: wait for it to end.
    if (RunLock::holder(ExperimentPaths::trialLock(queue.folder(), queue.name(), row.trial))) {
      found.waiting = true;
      continue;
    }
    found.ready.push_back(row);
  }
  return found;
}

// One turn of the queue: the ended trials recorded, the next ones started. True when the queue
// is over (stopped and idle, or nothing left to train).
bool pollOnce(QueueRun& queue, TrialExecutor& executor) {
  const bool polled = executor.poll(queue);
  if (queue.stopping) return executor.idle();
  if (!polled) return false;
  // Halving ranks by the runs' validation; other searches need not read them every poll.
  if (isHalving(queue.plan)) promoteAtRungs(queue.plan, queue.ledger, queue.catalogue.runs());
  const PendingTrials pending = pendingTrials(queue, executor);
  if (!pending.ready.empty()) executor.start(queue, pending.ready);
  return executor.idle() && !pending.any && !pending.waiting;
}

// A stop asked while another program holds the database: what the queue could not record
// (a trial's end, its return to the queue) the next queue run finds from the trials' runs.
QueueOutcome stoppedWhileHeld(const QueueRun& queue) {
  queue.log(
      "stopped; another program still holds the run database locked, so the trials' "
      "last states wait for the next queue run; run the experiment again to go on");
  return QueueOutcome::Stopped;
}

QueueOutcome finishQueue(const QueueRun& queue) {
  const std::vector<TrialRecord> rows = queue.ledger.trials(queue.name());
  if (queue.stopping) {
    for (const TrialRecord& row : rows) {
      if (row.status == TrialStatus::Running)
        queue.ledger.setStatus(queue.name(), row.trial, TrialStatus::Queued);
    }
    queue.log("stopped; run the experiment again to go on");
    return QueueOutcome::Stopped;
  }
  bool failed = false;
  for (const TrialRecord& row : rows) failed = failed || row.status == TrialStatus::Failed;
  queue.log(failed ? "finished; some trials failed (`mrnn experiment run --retry-failed` trains "
                     "them again, each from its run's last checkpoint)"
                   : "finished: every trial done");
  return failed ? QueueOutcome::SomeFailed : QueueOutcome::AllDone;
}

}  // namespace

QueueOutcome runExperimentQueue(const ExperimentPlan& plan, const QueueOptions& options,
                                TrialExecutor& executor) {
  const std::string& folder = plan.folder();
  const std::string& name = plan.experiment.name;
  const auto log = [&options](const std::string& line) {
    if (options.log) options.log(line);
  };
  std::filesystem::create_directories(ExperimentPaths::folder(folder, name));
  const auto queueLock = lockQueue(folder, name, log);
  if (!queueLock) return QueueOutcome::AlreadyRunning;
  executor.open(options);
  RunCatalogue catalogue(folder, RunCatalogue::Access::ReadWrite);
  ExperimentLedger ledger(folder);
  matchLedgerToPlan(plan, options, ledger, catalogue, executor.kind(), log);
  QueueRun queue{plan, options, ledger, catalogue, log, false, {}};
  for (const std::string& line : executor.begin(queue)) log(line);
  // Another program may hold the database a while (a database browser mid-edit): a poll that
  // finds it locked is made again later, so no write waits long enough to delay a stop.
  ledger.setBusyWait(kHeldDatabaseTryMilliseconds);
  catalogue.store().setBusyWait(kHeldDatabaseTryMilliseconds);
  HeldDatabase held(log);

  const auto pause = [&options]() {
    std::this_thread::sleep_for(std::chrono::milliseconds(options.pollMilliseconds));
  };
  while (true) {
    if (!queue.stopping && options.stop != nullptr && options.stop->stopRequested()) {
      queue.stopping = true;
      held.stopAsked();
      executor.stopAll(queue);
    }
    try {
      if (pollOnce(queue, executor)) break;
      held.free();
    } catch (const StoreBusyError&) {
      if (!held.wait(queue.stopping)) return stoppedWhileHeld(queue);
    }
    pause();
  }
  while (true) {
    try {
      return finishQueue(queue);
    } catch (const StoreBusyError&) {
      if (!held.wait(queue.stopping)) return stoppedWhileHeld(queue);
      pause();
    }
  }
}

}  // namespace mrnn::engine
