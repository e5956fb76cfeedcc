#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/slurm_client.h"
#include "engine/experiment/slurm_jobs.h"

namespace mrnn::engine {

class RunCatalogue;

// What the Slurm executor (SlurmExecutor, docs/distributed.md) reads and writes of its
// trials' folders and jobs: the jobs file, a trial's ticket and exit status, the import of a
// trial's run into the project's store, and the jobs' lines of `mrnn experiment status`.

// Slots and threads on Slurm: `slots` (the option, else the experiment's) throttles each array
// ("%N"; 0: as many as Slurm runs); threads per trial: the option, the experiment's,
// slurm.cpus_per_task, else 1.
SlotPlan chooseSlurmSlots(const Experiment& experiment, int64_t slotsOption, int64_t threadsOption);

// The experiment's queue (runExperimentQueue) with the Slurm executor over `client`: runs until
// every trial is done, cut or failed, or the stop flag is set (then the live jobs are cancelled
// with scancel, their trials stop with checkpoints and are collected). Throws
// ExperimentChangedError as the queue does, and std::runtime_error when sbatch refuses the
// trials or squeue keeps failing (the trials stay queued; run it again).
QueueOutcome runSlurmQueue(const ExperimentPlan& plan, const QueueOptions& options,
                           SlurmClient& client);

// The experiment's jobs not yet collected (empty: none, or it never ran on Slurm). Throws
// std::runtime_error naming the file when it cannot be read.
SlurmJobs recordedSlurmJobs(const std::string& projectFolder, const std::string& experiment);

// Imports the run trial `index`'s job trained into the project's store (RunStore::importRun,
// with the planned data paths in its config) and points the ledger at it. Returns the run's
// id in the project, 0 when the job left none. Only once the job has ended: its folder then
// has no other user, and this process may recover what a killed job left in its database.
int64_t collectSlurmTrial(const ExperimentPlan& plan, int64_t index, RunCatalogue& catalogue,
                          ExperimentLedger& ledger);

// Before trial `row` is submitted: its run folder and the ticket that tells its job what the
// ledger would (fingerprint, budget, the run of its folder to continue, the folder's newest run).
void writeSlurmTicket(const ExperimentPlan& plan, const TrialRecord& row,
                      const RunCatalogue& catalogue);

// The exit status the trial of job `jobId` wrote as it ended (none: it was killed, or never
// ran).
std::optional<int> slurmExitStatus(const std::string& projectFolder, const std::string& experiment,
                                   int64_t index, const std::string& jobId);

// For `mrnn experiment status`: each recorded trial's job as squeue gives it (`states`), with
// the step its log reached, or, once ended, what it left to collect; `rows` gain their `job`.
// A trial whose job lives (or whose state is unknown: squeue failed, `states` null) is not
// interrupted.
void describeSlurmJobs(const std::string& projectFolder, const std::string& experiment,
                       const SlurmJobs& jobs, const std::map<std::string, SlurmJobState>* states,
                       std::vector<TrialProgress>& rows);

}  // namespace mrnn::engine
