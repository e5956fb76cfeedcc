#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/slurm_client.h"
#include "engine/experiment/slurm_jobs.h"

namespace mrnn::engine {

class RunCatalogue;

// The Slurm executor (docs/distributed.md): the queue's trials as Slurm job arrays, each
// array task one `mrnn experiment trial` training into the trial's own run folder
// (ExperimentPaths::slurmRunFolder). Only this process, on the submit host, writes the
// project's runs.sqlite: it imports each trial's run once its job has ended (SQLite is not
// safe across the machines of a network file system; one writer per file, one machine at a
// time). Slurm jobs outlive the queue: a queue run again finds them in the jobs file, leaves
// the live ones be and collects the ended ones.

// Slots and threads on Slurm: `slots` (the option, else the experiment's) throttles each array
// ("%N"; 0: as many as Slurm runs); threads per trial: the option, the experiment's,
// slurm.cpus_per_task, else 1.
SlotPlan chooseSlurmSlots(const Experiment& experiment, int64_t slotsOption, int64_t threadsOption);

// Runs the queue until every trial is done, cut or failed, or the stop flag is set (then the
// live jobs are cancelled with scancel, their trials stop with checkpoints and are collected).
// Outcomes as runExperimentQueue's. Throws ExperimentChangedError as it does, and
// std::runtime_error when sbatch refuses the trials or squeue keeps failing (the trials stay
// queued; run it again).
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

// For `mrnn experiment status`: each recorded trial's job as squeue gives it (`states`), with
// the step its log reached, or, once ended, what it left to collect; `rows` gain their `job`.
// A trial whose job lives (or whose state is unknown: squeue failed, `states` null) is not
// interrupted.
void describeSlurmJobs(const std::string& projectFolder, const std::string& experiment,
                       const SlurmJobs& jobs, const std::map<std::string, SlurmJobState>* states,
                       std::vector<TrialProgress>& rows);

}  // namespace mrnn::engine
