#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_lock.h"
#include "engine/store/run_store.h"

namespace mrnn::engine {

class RunStore;
class RunCatalogue;
class TrialExecutor;

// The experiment file changed after some trials ran: their recorded configuration is not
// the plan's any more. `--replan` (QueueOptions::replan) starts the queue afresh.
class ExperimentChangedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How a queue run ended; `mrnn experiment run` exits with the number.
enum class QueueOutcome {
  AllDone = 0,     // every trial done (or cut by successive halving)
  SomeFailed = 1,  // the queue ran out of trials, some failed
  Stopped = 3,     // stopped on request (or a signal): run again to go on
  AlreadyRunning = 4,
};

struct QueueOptions {
  // The `mrnn` to start trials with (the queue's own executable, normally).
  std::string program;
  int64_t slotCount = 0;  // 0: the experiment's, else one per processor, at most the trials
  int64_t threads = 0;    // per trial; 0: the experiment's, else processors / slots
  // GPUs this machine has (the caller asks LibTorch). Trials on `device: cuda` run one per
  // GPU, each child seeing only its own (CUDA_VISIBLE_DEVICES).
  int64_t gpus = 0;
  bool replan = false;
  // Failed trials are queued again, each going on from its run's last whole checkpoint (a new
  // run when it has none): for failures from outside (a disk that filled, a process killed).
  bool retryFailed = false;
  std::function<void(const std::string&)> log;  // one line per event, for the terminal
  const StopToken* stop = nullptr;              // stopped by a signal handler or the GUI
  int pollMilliseconds = 200;
};

// Slots and threads for `trials` trials on `processors` cores: the experiment's own choice,
// else one trial per core with one thread each (never more threads than cores in all).
struct SlotPlan {
  int64_t count = 1;  // trials at once
  int64_t threads = 1;
};
// On CUDA (`gpus` > 0: the trials train on device cuda), one slot per GPU.
SlotPlan chooseSlots(const Experiment& experiment, int64_t trials, int64_t processors,
                     int64_t slotsOption = 0, int64_t threadsOption = 0, int64_t gpus = 0);

// A trial as the queue first records it: queued, at the first rung's budget (halving) or
// the project's own end.
TrialRecord queuedTrialRecord(const ExperimentPlan& plan, const TrialPlan& trial);

// Makes the ledger's rows the plan's trials: new trials are queued, queued trials take the
// plan's current configuration, trials gone from the plan are dropped if they never ran.
// A trial that ran (or runs) with another configuration throws ExperimentChangedError naming
// it, unless `replan` (then every row is planned afresh; the old runs stay in the store, and
// with `store` each gets a note saying it ran with an earlier plan, so that a run of the new
// plan, named the same, is not mistaken for it).
void syncLedger(const ExperimentPlan& plan, ExperimentLedger& ledger, bool replan,
                RunStore* store = nullptr);
// An experiment whose queue records were lost (the table dropped, the database restored from
// an older copy) while its runs remain: each trial takes back the latest run of its name
// (finished: done; failed: failed; else queued to resume), so that nothing trains twice.
// Does nothing when the ledger holds any trial of the experiment. Returns the trials recovered.
int64_t recoverTrialsFromRuns(const ExperimentPlan& plan, ExperimentLedger& ledger,
                              const std::vector<RunRecord>& runs);

// Successive halving: once every live trial has reached rung r (done there), the best
// configurations (mean best validation over their seeds) go on to rung r + 1, queued with
// that rung's budget; the rest are cut, with their rank in the reason. Returns whether it
// changed anything. Trials without a result at the rung rank last.
bool promoteAtRungs(const ExperimentPlan& plan, ExperimentLedger& ledger,
                    const std::vector<RunRecord>& runs);

// A trial's runs belong to the executor that trained them (TrialExecutor::trained), and no
// executor continues another's checkpoints. Throws ExperimentChangedError naming the first
// trial that another executor trained (`--replan` starts afresh).
void checkTrialsExecutor(const ExperimentPlan& plan, const ExperimentLedger& ledger,
                         const RunStore& store, ExecutorKind executor);

// "trial #3 (lr=0.01, seed 2)", as the queue's log lines name trials.
std::string describeTrial(const TrialRecord& trial);

// What the queue makes of a trial that ended with exit `code` (128 + N: killed by signal N;
// `mrnn experiment trial`'s own codes: 0 done, 1 failed, 3 stopped, 4 busy): done, queued again
// (stopped, busy, or killed once: `kills` counts them), or failed with the reason its run, or
// else its log's last line, gives. `stopping`: the queue itself asked it to stop.
void recordTrialExit(const ExperimentPlan& plan, ExperimentLedger& ledger,
                     const RunCatalogue& catalogue, int64_t index, int code, bool stopping,
                     std::map<int64_t, int>& kills,
                     const std::function<void(const std::string&)>& log);

// Runs the experiment's queue in this process until every trial is done, cut or failed, or the
// stop flag is set (then `executor` stops its trials, which save checkpoints first). Only one
// queue per experiment: a second gets AlreadyRunning. The queue decides (the ledger, halving,
// which trials are pending, the ending); `executor` trains the trials (trial_executors.h).
QueueOutcome runExperimentQueue(const ExperimentPlan& plan, const QueueOptions& options,
                                TrialExecutor& executor);

// The one queue of an experiment, whichever executor runs it: its lock, or nothing (said
// through `log`) when another queue holds it.
std::optional<RunLock> lockQueue(const std::string& folder, const std::string& name,
                                 const std::function<void(const std::string&)>& log);

// What a trial's child does with its run: continue it from its latest checkpoint, start a new
// one (no run yet, or one that never saved a checkpoint), or nothing (already at its budget).
struct TrialStart {
  bool alreadyDone = false;
  std::string resumeFrom;  // empty: a new run
};
TrialStart decideTrialStart(const std::string& projectFolder, const TrialRecord& trial);

}  // namespace mrnn::engine
