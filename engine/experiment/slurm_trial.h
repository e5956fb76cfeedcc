#pragma once

#include <cstdint>
#include <string>

#include "engine/config/project_file.h"
#include "engine/experiment/slurm_jobs.h"
#include "engine/store/run_store.h"

namespace mrnn::engine {

// A Slurm trial's own run folder (docs/distributed.md): its job trains into it alone, and the
// queue on the submit host imports the trial's run from it once the job has ended. The project's
// runs.sqlite is never opened on a compute node: SQLite's locks and its WAL's shared memory do
// not hold across the machines of a network file system.

// The trial's project as its job trains it: `folder` is the run folder (its runs.sqlite and
// checkpoints/), and the data paths, which the project gives relative to its own folder, are
// made absolute so that the corpus is still found.
Project slurmTrialProject(const Project& planned, const std::string& runFolder);

// The config recorded for the imported run: the job's own (its threads and every value it
// trained with) with the planned project's data paths again, so that the project's run reads
// exactly as a run of the local executor (and `evaluate on test` finds its corpus).
std::string importedTrialConfig(const std::string& trainedConfig, const Project& planned);

// The run a trial's job trained, of the runs of its run folder: a run newer than the ticket's
// `lastRun` (the job started it), else the run the ticket continued; 0 when the job left none
// (it failed before starting one).
int64_t slurmTrialRun(const SlurmTicket& ticket, const std::vector<RunRecord>& runs);

}  // namespace mrnn::engine
