#include "engine/experiment/slurm_queue.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/slurm_executor.h"
#include "engine/experiment/slurm_trial.h"
#include "engine/io/atomic_file.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_lock.h"

namespace mrnn::engine {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> readIfPresent(const std::string& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return std::nullopt;
  try {
    return readWholeFile(path);
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

void writeSlurmTicket(const ExperimentPlan& plan, const TrialRecord& row,
                      const RunCatalogue& catalogue) {
  const std::string& folder = plan.folder();
  const std::string& name = plan.experiment.name;
  SlurmTicket ticket;
  ticket.fingerprint = row.fingerprint;
  ticket.budget = row.budget;
  const TrialFolderRuns own =
      trialFolderRuns(folder, name, row.trial, RunCatalogue::Access::ReadOnly);
  for (const RunRecord& run : own.runs) ticket.lastRun = std::max(ticket.lastRun, run.id);
  // The run to continue is the one the ledger's run was imported from, if it is still in this
  // trial's folder (same database: same project id).
  const std::string ownFolder = ExperimentPaths::slurmRunFolder(folder, name, row.trial);
  if (row.runId > 0) {
    const auto origin = catalogue.store().origin(row.runId);
    if (origin && RunCatalogue::exists(ownFolder) &&
        RunCatalogue(ownFolder).projectId() == origin->project) {
      ticket.run = origin->run;
    }
  }
  fs::create_directories(ownFolder);
  writeFileAtomically(ExperimentPaths::slurmTicket(folder, name, row.trial),
                      formatSlurmTicket(ticket));
}

std::optional<int> slurmExitStatus(const std::string& projectFolder, const std::string& experiment,
                                   int64_t index, const std::string& jobId) {
  const auto text =
      readIfPresent(ExperimentPaths::slurmExit(projectFolder, experiment, index, jobId));
  if (!text) return std::nullopt;
  try {
    return std::stoi(*text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

QueueOutcome runSlurmQueue(const ExperimentPlan& plan, const QueueOptions& options,
                           SlurmClient& client) {
  SlurmExecutor executor(plan.folder(), plan.experiment.name, client);
  return runExperimentQueue(plan, options, executor);
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
      int64_t step = -1;
      try {
        step =
            lastLoggedStep(readFileTail(ExperimentPaths::trialLog(projectFolder, experiment, index),
                                        ExperimentPaths::kTrialLogTailBytes));
      } catch (const std::exception&) {
        // No log yet (the job has not started), or no file: no step to say.
      }
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
