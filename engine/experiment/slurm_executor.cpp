#include "engine/experiment/slurm_executor.h"

#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/queue_run.h"
#include "engine/experiment/slurm_queue.h"
#include "engine/io/atomic_file.h"
#include "engine/store/run_lock.h"
#include "engine/store/run_store.h"

namespace mrnn::engine {
namespace {

namespace fs = std::filesystem;

std::string absolutePath(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

std::vector<std::string> taskIds(const SlurmJobs& jobs) {
  std::vector<std::string> ids;
  for (const auto& [index, id] : jobs) ids.push_back(id);
  return ids;
}

}  // namespace

SlurmExecutor::SlurmExecutor(std::string projectFolder, std::string experiment)
    : folder_(std::move(projectFolder)),
      name_(std::move(experiment)),
      jobName_(slurmJobName(name_)),
      ownClient_(std::make_unique<SlurmClient>()),
      client_(*ownClient_) {}

SlurmExecutor::SlurmExecutor(std::string projectFolder, std::string experiment, SlurmClient& client)
    : folder_(std::move(projectFolder)),
      name_(std::move(experiment)),
      jobName_(slurmJobName(name_)),
      client_(client) {}

bool SlurmExecutor::trained(const RunStore& store, int64_t runId) const {
  return store.origin(runId).has_value();
}

std::optional<std::string> SlurmExecutor::unavailable() const {
  std::string missing;
  if (SlurmClient::available(&missing)) return std::nullopt;
  return missing +
         " is not on PATH; the Slurm executor submits the trials with sbatch and follows them "
         "with squeue (docs/distributed.md)";
}

std::vector<std::string> SlurmExecutor::describeTrials(std::vector<TrialProgress>& rows) {
  // Read afresh: the queue that wrote the jobs file may run in another process.
  const SlurmJobs jobs = recordedSlurmJobs(folder_, name_);
  if (jobs.empty()) return {};
  std::vector<std::string> lines;
  std::map<std::string, SlurmJobState> states;
  bool known = false;
  try {
    states = client_.jobs(jobName_);
    known = true;
  } catch (const std::exception& error) {
    lines.push_back(std::string("squeue: ") + error.what());
  }
  describeSlurmJobs(folder_, name_, jobs, known ? &states : nullptr, rows);
  lines.push_back(std::to_string(jobs.size()) + " trial" + (jobs.size() == 1 ? "" : "s") +
                  " in Slurm jobs not yet collected");
  return lines;
}

std::optional<std::string> SlurmExecutor::stopWithoutQueue() {
  const SlurmJobs jobs = recordedSlurmJobs(folder_, name_);
  if (jobs.empty()) return std::nullopt;
  client_.cancel(taskIds(jobs));
  return "the queue is not running; cancelled " + std::to_string(jobs.size()) + " Slurm job" +
         (jobs.size() == 1 ? "" : "s") +
         " (running trials save a checkpoint first); `mrnn experiment run` collects their runs "
         "and goes on";
}

void SlurmExecutor::open(const QueueOptions& options) {
  fs::create_directories(ExperimentPaths::slurmFolder(folder_, name_));
  jobs_ = recordedSlurmJobs(folder_, name_);
  states_ = client_.jobs(jobName_);
  fresh_ = true;
  if (!options.replan) return;
  for (const auto& [index, id] : jobs_) {
    const auto state = states_.find(id);
    if (state != states_.end() && state->second.live()) {
      throw ExperimentChangedError("experiment '" + name_ + "': trial #" +
                                   std::to_string(index + 1) + " is still Slurm job " + id + " (" +
                                   state->second.describe() +
                                   "); stop it (`mrnn experiment stop`) before --replan");
    }
  }
  jobs_.clear();  // their runs belong to the old plan and stay in the trials' folders
  saveJobs();
}

std::vector<std::string> SlurmExecutor::begin(QueueRun& queue) {
  // A queue killed between recording its jobs and marking their trials left them queued.
  for (const auto& [index, id] : jobs_) {
    const auto row = queue.ledger.trial(name_, index);
    if (row && row->status == TrialStatus::Queued) {
      queue.ledger.setStatus(name_, index, TrialStatus::Running);
    }
  }
  const Experiment& experiment = queue.plan.experiment;
  slots_ = chooseSlurmSlots(experiment, queue.options.slotCount, queue.options.threads);
  submission_.program = absolutePath(queue.options.program);
  submission_.experimentFile = absolutePath(experiment.file);
  submission_.projectFolder = absolutePath(folder_);
  submission_.logFolder = absolutePath(ExperimentPaths::folder(folder_, name_));
  submission_.slurmFolder = absolutePath(ExperimentPaths::slurmFolder(folder_, name_));
  submission_.jobName = jobName_;
  submission_.threads = slots_.threads;
  submission_.settings = experiment.slurm;
  // Never more often than the queue's own poll.
  pollEvery_ = std::max<Clock::duration>(std::chrono::seconds(experiment.slurm.pollSeconds),
                                         std::chrono::milliseconds(queue.options.pollMilliseconds));
  nextPoll_ = Clock::now();
  std::vector<std::string> lines{
      "experiment '" + name_ + "': " + std::to_string(queue.plan.trials.size()) +
      " trials on Slurm as job '" + jobName_ + "', " +
      (slots_.count > 0 ? std::to_string(slots_.count) + " at a time"
                        : std::string("as many at a time as Slurm runs")) +
      ", " + std::to_string(slots_.threads) + (slots_.threads == 1 ? " thread" : " threads") +
      " each"};
  if (!jobs_.empty()) {
    lines.push_back(std::to_string(jobs_.size()) + " trial" +
                    (jobs_.size() == 1 ? " is" : "s are") +
                    " still in Slurm from an earlier queue run; collecting them as they end");
  }
  return lines;
}

int64_t SlurmExecutor::freeSlots() const {
  return std::numeric_limits<int64_t>::max();
}

bool SlurmExecutor::poll(QueueRun& queue) {
  if (!fresh_) {
    if (Clock::now() < nextPoll_) return false;
    try {
      states_ = client_.jobs(jobName_);
      squeueFailures_ = 0;
    } catch (const std::exception& error) {
      if (++squeueFailures_ >= kSqueueAttempts) throw;
      queue.log(std::string("squeue: ") + error.what() + "; trying again");
      nextPoll_ = Clock::now() + pollEvery_;
      return false;
    }
  }
  fresh_ = false;
  // Stopping, ask again every second: the cancelled jobs end within the cluster's KillWait.
  nextPoll_ = Clock::now() + (queue.stopping
                                  ? std::min<Clock::duration>(pollEvery_, std::chrono::seconds(1))
                                  : pollEvery_);
  for (auto job = jobs_.begin(); job != jobs_.end();) {
    const auto state = states_.find(job->second);
    const bool listed = state != states_.end();
    // A live job, or one whose trial still holds its lock (still saving), is left be.
    if ((listed && state->second.live()) ||
        RunLock::holder(ExperimentPaths::trialLock(folder_, name_, job->first))) {
      ++job;
      continue;
    }
    collectJob(queue, job->first, job->second, listed ? &state->second : nullptr);
    job = jobs_.erase(job);
    saveJobs();
  }
  return true;
}

void SlurmExecutor::collectJob(QueueRun& queue, int64_t index, const std::string& id,
                               const SlurmJobState* state) {
  const std::string trial = "trial #" + std::to_string(index + 1);
  try {
    collectSlurmTrial(queue.plan, index, queue.catalogue, queue.ledger);
  } catch (const std::exception& error) {
    // A folder the queue cannot read (damaged, removed by hand): the trial fails with the
    // reason; the others go on.
    const std::string reason = std::string("its run could not be collected: ") + error.what();
    queue.ledger.setStatus(name_, index, TrialStatus::Failed, reason);
    queue.log(trial + " failed: " + reason);
    return;
  }
  const auto written = slurmExitStatus(folder_, name_, index, id);
  // No status written: the job never ran its trial (cancelled while pending) or it was killed
  // (SIGKILL after KillWait, a failed node, the memory limit).
  const int code = written ? *written : 128 + (queue.stopping ? SIGTERM : SIGKILL);
  if (!written && !queue.stopping) {
    queue.log(trial + ": Slurm job " + id + " ended (" +
              (state != nullptr ? state->describe() : std::string("gone from squeue")) +
              ") without an exit status");
  }
  queue.recordExit(index, code);
}

void SlurmExecutor::start(QueueRun& queue, const std::vector<TrialRecord>& trials) {
  std::vector<int64_t> numbers;
  for (const TrialRecord& row : trials) {
    writeSlurmTicket(queue.plan, row, queue.catalogue);
    numbers.push_back(row.trial + 1);
  }
  const std::string script = ExperimentPaths::slurmScript(folder_, name_);
  writeFileAtomically(script, slurmJobScript(submission_));
  const std::string array = slurmArraySpec(numbers, slots_.count);
  std::string jobId;
  try {
    jobId = client_.submit(sbatchArguments(submission_, array, absolutePath(script)));
  } catch (const std::exception& error) {
    throw std::runtime_error("experiment '" + name_ + "': Slurm refused the trials (they stay " +
                             "queued; fix the experiment's slurm: section and run it " +
                             "again): " + error.what());
  }
  for (const TrialRecord& row : trials) jobs_[row.trial] = slurmTaskId(jobId, row.trial);
  saveJobs();
  std::string listed;
  for (const TrialRecord& row : trials) {
    queue.ledger.setStatus(name_, row.trial, TrialStatus::Running);
    listed += (listed.empty() ? "#" : ", #") + std::to_string(row.trial + 1);
  }
  queue.log("submitted trial" + std::string(trials.size() == 1 ? " " : "s ") + listed +
            " as Slurm job " + jobId + " (array " + array + ")");
  // See them in squeue before deciding anything about them.
  nextPoll_ = Clock::now();
}

void SlurmExecutor::stopAll(QueueRun& queue) {
  const std::vector<std::string> ids = taskIds(jobs_);
  queue.log("stopping: cancelling " + std::to_string(ids.size()) +
            " Slurm job(s); running trials save a checkpoint first");
  try {
    client_.cancel(ids);
  } catch (const std::exception& error) {
    queue.log(std::string("scancel: ") + error.what());
  }
  nextPoll_ = Clock::now();
}

void SlurmExecutor::saveJobs() const {
  writeFileAtomically(ExperimentPaths::slurmJobs(folder_, name_), formatSlurmJobs(jobs_));
}

}  // namespace mrnn::engine
