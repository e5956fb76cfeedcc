#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/experiment/experiment_spec.h"

namespace mrnn::engine {

// The Slurm executor's plain parts (docs/distributed.md): what it writes and reads (the jobs
// file, a trial's ticket, the batch script, the sbatch command line) and what it reads of
// squeue. Nothing here runs a command; SlurmClient does.

// One array task as squeue reports it.
struct SlurmJobState {
  std::string id;       // "<array job id>_<task id>": "1234_3" (the task id is the trial number)
  std::string state;    // PENDING, RUNNING, COMPLETING, COMPLETED, CANCELLED, TIMEOUT, ...
  std::string reason;   // why it waits (Resources, Priority, JobArrayTaskLimit); "None"
  std::string node;     // where it runs
  std::string elapsed;  // time used, as Slurm writes it ("1:02")
  // Whether its processes may still run or write: any state but the final ones (an unknown
  // state counts as live, so that nothing is collected under a writer).
  bool live() const;
  // "pending (Resources)", "running on node7 for 1:02", "completed".
  std::string describe() const;
};

// squeue's arguments (after the program) for every task of the jobs named `jobName`, finished
// ones included while Slurm remembers them, in the format parseSqueue reads.
std::vector<std::string> squeueArguments(const std::string& jobName);
// The tasks by id. Throws std::runtime_error quoting a line it cannot read.
std::map<std::string, SlurmJobState> parseSqueue(const std::string& text);

// sbatch --array's value for these trial numbers (1-based; the task id is the trial number):
// runs written as ranges ("1-3,5"), with "%slots" when fewer may run at once than are listed.
std::string slurmArraySpec(std::vector<int64_t> trialNumbers, int64_t slots);
// The job id that `sbatch --parsable` printed ("1234", or "1234;cluster"). Throws
// std::runtime_error quoting the output when it holds none.
std::string parseSbatchJobId(const std::string& output);
// The id squeue gives the array task of trial `index` (0-based) in array job `jobId`.
std::string slurmTaskId(const std::string& jobId, int64_t index);

// The jobs not yet collected: trial index (0-based) -> task id. The file has one
// "<trial number> <task id>" per line, so that it reads as the trial tables do.
using SlurmJobs = std::map<int64_t, std::string>;
std::string formatSlurmJobs(const SlurmJobs& jobs);
// Throws std::runtime_error naming `file` and the line it cannot read.
SlurmJobs parseSlurmJobs(const std::string& text, const std::string& file);

// What the queue tells a trial's job, in the trial's run folder: the job must not read the
// project's run database (it may be on another machine), so the ledger's part comes this way.
struct SlurmTicket {
  std::string fingerprint;  // of the trial's project as queued: a changed experiment is refused
  int64_t budget = 0;       // steps to train to; 0: the project's own end
  int64_t run = 0;          // the run of its own store to continue; 0: a new run
  // The newest run of the trial's folder when the job was submitted: a newer run is the job's.
  // For the queue only (it reads its ticket back when it collects the job).
  int64_t lastRun = 0;
};
std::string formatSlurmTicket(const SlurmTicket& ticket);
// Throws std::runtime_error naming `file`, the line and the key it cannot read.
SlurmTicket parseSlurmTicket(const std::string& text, const std::string& file);

// Everything a submission needs, with absolute paths (the job may start in another folder on
// another machine).
struct SlurmSubmission {
  std::string program;         // the `mrnn` that runs the trials
  std::string experimentFile;  // the experiment file
  std::string projectFolder;   // the job's working folder
  std::string logFolder;       // experiment-logs/<name>: trial-<n>.log
  std::string slurmFolder;     // experiment-logs/<name>/slurm: the script, trial-<n>/
  std::string jobName;         // what squeue lists the jobs as
  int64_t threads = 1;         // per trial
  SlurmSettings settings;
};
// The job name of an experiment's trials: "mrnn-<name>".
std::string slurmJobName(const std::string& experiment);
// The batch script each array task runs: the settings' setup lines, then `exec mrnn experiment
// trial` for trial $SLURM_ARRAY_TASK_ID in its run folder (exec: Slurm's SIGTERM reaches
// mrnn itself, which stops with a checkpoint).
std::string slurmJobScript(const SlurmSubmission& submission);
// sbatch's arguments (after the program) to submit `script` as an array of `array`.
std::vector<std::string> sbatchArguments(const SlurmSubmission& submission,
                                         const std::string& array, const std::string& script);
// The last step a trial's log reports ("... step 120  loss ...", "validation at step 100"), or
// -1: how far a trial on another machine has come, without its run database.
int64_t lastLoggedStep(const std::string& logText);

// A word as POSIX sh reads it back unchanged: single-quoted.
std::string shellQuoted(const std::string& word);

}  // namespace mrnn::engine
