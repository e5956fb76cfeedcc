#include "engine/experiment/slurm_queue.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/slurm_trial.h"
#include "engine/io/atomic_file.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_lock.h"

namespace mrnn::engine {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Failed squeue calls in a row before the queue gives up (slurmctld gone for good).
constexpr int kSqueueAttempts = 10;

std::string absolutePath(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

std::optional<std::string> readIfPresent(const std::string& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return std::nullopt;
  try {
    return readWholeFile(path);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The exit status the trial of a job wrote as it ended (none: it was killed, or never ran).
std::optional<int> writtenExitStatus(const std::string& path) {
  const auto text = readIfPresent(path);
  if (!text) return std::nullopt;
  try {
    size_t used = 0;
    const int code = std::stoi(*text, &used);
    return code;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<SlurmTicket> readTicket(const std::string& path) {
  const auto text = readIfPresent(path);
  if (!text) return std::nullopt;
  try {
    return parseSlurmTicket(*text, path);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool trialLocked(const std::string& projectFolder, const std::string& experiment, int64_t index) {
  return RunLock::holder(ExperimentPaths::trialLock(projectFolder, experiment, index)).has_value();
}

// The runs of a trial's folder and the one its last job trained (0: none).
struct TrialFolderRuns {
  std::vector<RunRecord> runs;
  int64_t trained = 0;
};
TrialFolderRuns trialFolderRuns(const std::string& projectFolder, const std::string& experiment,
                                int64_t index, RunCatalogue::Access access) {
  TrialFolderRuns found;
  const std::string folder = ExperimentPaths::slurmRunFolder(projectFolder, experiment, index);
  if (!RunCatalogue::exists(folder)) return found;
  const RunCatalogue catalogue(folder, access);
  found.runs = catalogue.store().listRuns();
  const auto ticket = readTicket(ExperimentPaths::slurmTicket(projectFolder, experiment, index));
  found.trained =
      ticket ? slurmTrialRun(*ticket, found.runs) : (found.runs.empty() ? 0 : found.runs.back().id);
  return found;
}

}  // namespace

SlotPlan chooseSlurmSlots(const Experiment& experiment, int64_t slotsOption,
                          int64_t threadsOption) {
  SlotPlan plan;
  plan.count = slotsOption > 0 ? slotsOption : experiment.slotCount;
  plan.threads = threadsOption > 0                  ? threadsOption
                 : experiment.threads > 0           ? experiment.threads
                 : experiment.slurm.cpusPerTask > 0 ? experiment.slurm.cpusPerTask
                                                    : 1;
  return plan;
}

SlurmJobs recordedSlurmJobs(const std::string& projectFolder, const std::string& experiment) {
  const std::string path = ExperimentPaths::slurmJobs(projectFolder, experiment);
  const auto text = readIfPresent(path);
  return text ? parseSlurmJobs(*text, path) : SlurmJobs{};
}

int64_t collectSlurmTrial(const ExperimentPlan& plan, int64_t index, RunCatalogue& catalogue,
                          ExperimentLedger& ledger) {
  const std::string folder =
      ExperimentPaths::slurmRunFolder(plan.folder(), plan.experiment.name, index);
  if (!RunCatalogue::exists(folder)) return 0;
  // The job has ended: this process is the database's one user, and opening it for writing
  // replays what a killed job left in its write-ahead log.
  RunCatalogue source(folder, RunCatalogue::Access::ReadWrite);
  const auto ticket =
      readTicket(ExperimentPaths::slurmTicket(plan.folder(), plan.experiment.name, index));
  const std::vector<RunRecord> runs = source.store().listRuns();
  const int64_t trained = ticket ? slurmTrialRun(*ticket, runs) : 0;
  if (trained == 0) return 0;
  const auto run = source.store().run(trained);
  const int64_t id = catalogue.store().importRun(
      source.store(), trained,
      importedTrialConfig(run->configYaml, plan.trials[static_cast<size_t>(index)].project));
  const auto row = ledger.trial(plan.experiment.name, index);
  if (row && row->runId != id) ledger.setRun(plan.experiment.name, index, id);
  return id;
}

QueueOutcome runSlurmQueue(const ExperimentPlan& plan, const QueueOptions& options,
                           SlurmClient& client) {
  const std::string& folder = plan.folder();
  const std::string& name = plan.experiment.name;
  const auto log = [&options](const std::string& line) {
    if (options.log) options.log(line);
  };
  fs::create_directories(ExperimentPaths::slurmFolder(folder, name));
  const auto queueLock = lockQueue(folder, name, log);
  if (!queueLock) return QueueOutcome::AlreadyRunning;
  const std::string jobName = slurmJobName(name);
  SlurmJobs jobs = recordedSlurmJobs(folder, name);
  const auto saveJobs = [&]() {
    writeFileAtomically(ExperimentPaths::slurmJobs(folder, name), formatSlurmJobs(jobs));
  };
  std::map<std::string, SlurmJobState> states = client.jobs(jobName);
  if (options.replan) {
    for (const auto& [index, id] : jobs) {
      const auto state = states.find(id);
      if (state != states.end() && state->second.live()) {
        throw ExperimentChangedError("experiment '" + name + "': trial #" +
                                     std::to_string(index + 1) + " is still Slurm job " + id +
                                     " (" + state->second.describe() +
                                     "); stop it (`mrnn experiment stop`) before --replan");
      }
    }
    jobs.clear();  // their runs belong to the old plan and stay in the trials' folders
    saveJobs();
  }
  RunCatalogue catalogue(folder, RunCatalogue::Access::ReadWrite);
  ExperimentLedger ledger(folder);
  syncLedger(plan, ledger, options.replan, &catalogue.store());
  checkTrialsExecutor(plan, ledger, catalogue.store(), ExecutorKind::Slurm);
  // A queue killed between recording its jobs and marking their trials left them queued.
  for (const auto& [index, id] : jobs) {
    const auto row = ledger.trial(name, index);
    if (row && row->status == TrialStatus::Queued) {
      ledger.setStatus(name, index, TrialStatus::Running);
    }
  }

  const SlotPlan slots = chooseSlurmSlots(plan.experiment, options.slotCount, options.threads);
  SlurmSubmission submission;
  submission.program = absolutePath(options.program);
  submission.experimentFile = absolutePath(plan.experiment.file);
  submission.projectFolder = absolutePath(folder);
  submission.logFolder = absolutePath(ExperimentPaths::folder(folder, name));
  submission.slurmFolder = absolutePath(ExperimentPaths::slurmFolder(folder, name));
  submission.jobName = jobName;
  submission.threads = slots.threads;
  submission.settings = plan.experiment.slurm;
  log("experiment '" + name + "': " + std::to_string(plan.trials.size()) +
      " trials on Slurm as job '" + jobName + "', " +
      (slots.count > 0 ? std::to_string(slots.count) + " at a time"
                       : std::string("as many at a time as Slurm runs")) +
      ", " + std::to_string(slots.threads) + (slots.threads == 1 ? " thread" : " threads") +
      " each");
  if (!jobs.empty()) {
    log(std::to_string(jobs.size()) + " trial" + (jobs.size() == 1 ? " is" : "s are") +
        " still in Slurm from an earlier queue run; collecting them as they end");
  }

  std::map<int64_t, int> kills;
  bool stopping = false;
  int squeueFailures = 0;
  bool fresh = true;  // `states` was just read
  auto nextPoll = Clock::now();
  // Never more often than the queue's own poll (slurmctld answers every user's squeue).
  const Clock::duration pollEvery =
      std::max<Clock::duration>(std::chrono::seconds(plan.experiment.slurm.pollSeconds),
                                std::chrono::milliseconds(options.pollMilliseconds));
  while (true) {
    if (!stopping && options.stop != nullptr && options.stop->load()) {
      stopping = true;
      std::vector<std::string> ids;
      for (const auto& [index, id] : jobs) ids.push_back(id);
      log("stopping: cancelling " + std::to_string(ids.size()) +
          " Slurm job(s); running trials save a checkpoint first");
      try {
        client.cancel(ids);
      } catch (const std::exception& error) {
        log(std::string("scancel: ") + error.what());
      }
      nextPoll = Clock::now();
    }
    if (!fresh && Clock::now() < nextPoll) {
      std::this_thread::sleep_for(std::chrono::milliseconds(options.pollMilliseconds));
      continue;
    }
    if (!fresh) {
      try {
        states = client.jobs(jobName);
        squeueFailures = 0;
      } catch (const std::exception& error) {
        if (++squeueFailures >= kSqueueAttempts) throw;
        log(std::string("squeue: ") + error.what() + "; trying again");
        nextPoll = Clock::now() + pollEvery;
        continue;
      }
    }
    fresh = false;
    // Stopping, ask again every second: the cancelled jobs end within the cluster's KillWait.
    nextPoll =
        Clock::now() +
        (stopping ? std::min<Clock::duration>(pollEvery, std::chrono::seconds(1)) : pollEvery);

    // Collect the jobs that ended: their trials' runs into the store, their ends into the ledger.
    for (auto job = jobs.begin(); job != jobs.end();) {
      const int64_t index = job->first;
      const auto state = states.find(job->second);
      // A live job, or one whose trial still holds its lock (still saving), is left be.
      if ((state != states.end() && state->second.live()) ||
          trialLocked(plan.folder(), plan.experiment.name, index)) {
        ++job;
        continue;
      }
      try {
        collectSlurmTrial(plan, index, catalogue, ledger);
      } catch (const std::exception& error) {
        // A folder the queue cannot read (damaged, removed by hand): the trial fails with the
        // reason; the others go on.
        const std::string reason = std::string("its run could not be collected: ") + error.what();
        ledger.setStatus(name, index, TrialStatus::Failed, reason);
        log("trial #" + std::to_string(index + 1) + " failed: " + reason);
        job = jobs.erase(job);
        saveJobs();
        continue;
      }
      const auto written =
          writtenExitStatus(ExperimentPaths::slurmExit(folder, name, index, job->second));
      // No status written: the job never ran its trial (cancelled while pending) or it was
      // killed (SIGKILL after KillWait, a failed node, the memory limit).
      const int code = written ? *written : 128 + (stopping ? SIGTERM : SIGKILL);
      if (!written && !stopping) {
        log("trial #" + std::to_string(index + 1) + ": Slurm job " + job->second + " ended (" +
            (state != states.end() ? state->second.describe() : std::string("gone from squeue")) +
            ") without an exit status");
      }
      recordTrialExit(plan, ledger, catalogue, index, code, stopping, kills, log);
      job = jobs.erase(job);
      saveJobs();
    }
    if (stopping) {
      if (jobs.empty()) break;
      continue;
    }

    if (plan.experiment.search.kind == SearchKind::Halving) {
      promoteAtRungs(plan, ledger, catalogue.runs());
    }
    std::vector<int64_t> submit;
    bool waiting = false;
    for (const TrialRecord& row : ledger.trials(name)) {
      // Queued, or running with no job: its job was lost (see below).
      const bool pending =
          (row.status == TrialStatus::Queued || row.status == TrialStatus::Running) &&
          jobs.count(row.trial) == 0;
      if (!pending) continue;
      // A job this queue lost track of (killed between sbatch and the jobs file) still trains
      // it: wait for it to end.
      if (trialLocked(plan.folder(), plan.experiment.name, row.trial)) {
        waiting = true;
        continue;
      }
      submit.push_back(row.trial);
    }
    if (!submit.empty()) {
      std::vector<int64_t> numbers;
      for (const int64_t index : submit) {
        const TrialRecord row = *ledger.trial(name, index);
        SlurmTicket ticket;
        ticket.fingerprint = row.fingerprint;
        ticket.budget = row.budget;
        const TrialFolderRuns own = trialFolderRuns(plan.folder(), plan.experiment.name, index,
                                                    RunCatalogue::Access::ReadOnly);
        for (const RunRecord& run : own.runs) ticket.lastRun = std::max(ticket.lastRun, run.id);
        // The run to continue is the one the ledger's run was imported from, if it is still
        // in this trial's folder (same database: same project id).
        if (row.runId > 0) {
          const auto origin = catalogue.store().origin(row.runId);
          const std::string ownFolder = ExperimentPaths::slurmRunFolder(folder, name, index);
          if (origin && RunCatalogue::exists(ownFolder) &&
              RunCatalogue(ownFolder).projectId() == origin->project) {
            ticket.run = origin->run;
          }
        }
        fs::create_directories(ExperimentPaths::slurmRunFolder(folder, name, index));
        writeFileAtomically(ExperimentPaths::slurmTicket(folder, name, index),
                            formatSlurmTicket(ticket));
        numbers.push_back(index + 1);
      }
      const std::string script = ExperimentPaths::slurmScript(folder, name);
      writeFileAtomically(script, slurmJobScript(submission));
      const std::string array = slurmArraySpec(numbers, slots.count);
      std::string jobId;
      try {
        jobId = client.submit(sbatchArguments(submission, array, absolutePath(script)));
      } catch (const std::exception& error) {
        throw std::runtime_error("experiment '" + name + "': Slurm refused the trials (they stay " +
                                 "queued; fix the experiment's slurm: section and run it " +
                                 "again): " + error.what());
      }
      for (const int64_t index : submit) jobs[index] = slurmTaskId(jobId, index);
      saveJobs();
      std::string listed;
      for (const int64_t index : submit) {
        ledger.setStatus(name, index, TrialStatus::Running);
        listed += (listed.empty() ? "#" : ", #") + std::to_string(index + 1);
      }
      log("submitted trial" + std::string(submit.size() == 1 ? " " : "s ") + listed +
          " as Slurm job " + jobId + " (array " + array + ")");
      // See them in squeue before deciding anything about them.
      nextPoll = Clock::now();
      continue;
    }
    if (jobs.empty() && !waiting) break;
  }

  if (stopping) {
    for (const TrialRecord& row : ledger.trials(name)) {
      if (row.status == TrialStatus::Running) {
        ledger.setStatus(name, row.trial, TrialStatus::Queued);
      }
    }
    log("stopped; run the experiment again to go on");
    return QueueOutcome::Stopped;
  }
  bool failed = false;
  for (const TrialRecord& row : ledger.trials(name)) {
    failed = failed || row.status == TrialStatus::Failed;
  }
  log(failed ? "finished; some trials failed" : "finished: every trial done");
  return failed ? QueueOutcome::SomeFailed : QueueOutcome::AllDone;
}

void describeSlurmJobs(const std::string& projectFolder, const std::string& experiment,
                       const SlurmJobs& jobs, const std::map<std::string, SlurmJobState>* states,
                       std::vector<TrialProgress>& rows) {
  for (TrialProgress& row : rows) {
    const int64_t index = row.trial.trial;
    const auto job = jobs.find(index);
    if (job == jobs.end()) continue;
    row.job = "job " + job->second + ": ";
    const SlurmJobState* state = nullptr;
    if (states != nullptr) {
      const auto found = states->find(job->second);
      if (found != states->end()) state = &found->second;
    }
    const bool live = states == nullptr || (state != nullptr && state->live()) ||
                      trialLocked(projectFolder, experiment, index);
    if (states == nullptr) {
      row.job += "state unknown (squeue failed)";
    } else {
      row.job += state != nullptr ? state->describe() : std::string("ended");
    }
    if (live) {
      // Not interrupted: Slurm has it. How far it came is in its log (its database is the
      // job's alone while it runs).
      row.interrupted = false;
      const auto log = readIfPresent(ExperimentPaths::trialLog(projectFolder, experiment, index));
      const int64_t step = log ? lastLoggedStep(*log) : -1;
      if (step >= 0) row.job += ", step " + std::to_string(step) + " in its log";
      continue;
    }
    // Ended but not collected (the queue is not running): what its folder holds. Read only:
    // the queue collects it.
    try {
      const TrialFolderRuns own =
          trialFolderRuns(projectFolder, experiment, index, RunCatalogue::Access::ReadOnly);
      for (const RunRecord& run : own.runs) {
        if (run.id != own.trained) continue;
        row.job += ", left run " + std::to_string(run.id) + " of its folder " +
                   runStatusName(run.status) + " at step " + std::to_string(run.steps);
      }
    } catch (const std::exception& error) {
      row.job += std::string(", its folder cannot be read: ") + error.what();
    }
    row.job += "; `mrnn experiment run` collects it";
  }
}

}  // namespace mrnn::engine
