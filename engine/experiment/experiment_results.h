#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/loss_unit.h"
#include "engine/experiment/experiment_plan.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_store.h"

namespace mrnn::engine {

// A trial as `mrnn experiment status` and the Experiments panel show it.
struct TrialProgress {
  TrialRecord trial;
  std::optional<RunRecord> run;
  int64_t targetSteps = 0;           // the budget, or the project's max_steps (0: epochs)
  std::optional<double> etaSeconds;  // running trials with a rate
  // "running" in the ledger with no process training it (its queue was killed): the next
  // queue run resumes it.
  bool interrupted = false;
  // "running" in the ledger, its queue alive, and its process not yet training it.
  bool starting = false;
  // Running past its last step: the final validation and test.
  bool finishing = false;
  // The unit of its run's figures (its recorded output): `run->bestValid` is in bits.
  LossUnit unit = LossUnit::Bits;
  // On Slurm: the trial's job as squeue gives it ("job 1234_3: running on node7 for 2:10, step
  // 120 in its log"); empty on the local executor.
  std::string job;
  // The status, or what the queue is doing with it: "starting", "interrupted", "stopped" (queued
  // again with steps trained: Stop, or a queue that ended, left it to resume).
  std::string statusText() const;
  // The time left, "validating" while finishing, or "-".
  std::string etaText() const;
};

// From the ledger and the run store alone, never the plan: `status` answers at once however
// large the experiment. `trainedNow(index)` says whether a process holds the trial's lock;
// without it, no running trial reads as interrupted. `queueRunning`: a queue process holds the
// experiment, so a running trial nobody trains yet is starting, not interrupted.
std::vector<TrialProgress> experimentProgress(
    const std::vector<TrialRecord>& trials, const std::vector<RunRecord>& runs,
    const std::function<bool(int64_t trial)>& trainedNow = {}, bool queueRunning = false);
// Whether a process trains the trial now (it holds trial-<n>.lock).
bool trialTrainedNow(const std::string& projectFolder, const std::string& experiment,
                     int64_t trial);
// The steps a run trains to, from the project it recorded (0: unknown, or an epoch budget).
int64_t recordedMaxSteps(const RunRecord& run);
// The training time a run is limited to (training.max_seconds), from its recorded project; 0:
// none.
double recordedMaxSeconds(const RunRecord& run);

// Mean and sample standard deviation over the seeds that have the figure.
struct SeedSummary {
  int64_t count = 0;
  double mean = 0.0;
  double stddev = 0.0;         // 0 with one seed
  std::vector<double> values;  // each seed's, in the trials' order
};

// "1.2000 ± 0.2828" (four decimals), "1.2000" for one seed, "-" for none: as tables show it.
std::string meanStd(const SeedSummary& summary);

struct ReferenceFigure {
  std::string metric;
  double value = 0.0;
  std::string source;
};

// One configuration of the experiment (its trials over seeds), as tables give it.
struct ConfigurationResult {
  int64_t configuration = 0;
  std::vector<AxisSetting> settings;
  std::string label;
  int64_t parameters = 0;
  int64_t seeds = 0;  // trials planned
  int64_t done = 0;   // trials done
  std::string state;  // "done", "2 of 3 done", "running", "failed: ...", "cut at ..."
  // The configuration's loss unit (its output's): bits per symbol, or a real-valued output's
  // squared error; the figures below are in it.
  LossUnit unit = LossUnit::Bits;
  SeedSummary validLoss;  // best validation
  SeedSummary testLoss;   // test
  // A long-range problem (data.synthetic), scored by whole sequences: the share of its test
  // sequences got wrong (0 to 1) over the seeds, and how many of those seeds solved it (below
  // 1% wrong, as `mrnn-bench-long-range` counts).
  bool scoresSequences = false;
  SeedSummary testErrorRate;
  int64_t solved = 0;
  std::vector<ReferenceFigure> references;
  std::vector<int64_t> runIds;
};

// Each configuration's loss unit, in the rows' order.
std::vector<LossUnit> lossUnitsOf(const std::vector<ConfigurationResult>& rows);
// Whether any configuration is a long-range problem: its tables then give the share of test
// sequences wrong and the seeds that solved it.
bool anyScoresSequences(const std::vector<ConfigurationResult>& rows);
// "12.5% ± 3.1%" (one decimal), "0.0%" for one seed, "-" for none.
std::string percentMeanStd(const SeedSummary& summary);
// "2/3": the seeds that solved the problem, of those with a test error rate; "-" for none.
std::string solvedText(const ConfigurationResult& row);

std::vector<ConfigurationResult> experimentResults(const ExperimentPlan& plan,
                                                   const std::vector<TrialRecord>& trials,
                                                   const std::vector<RunRecord>& runs);

// The measured figure of a configuration for a metric name (experimentMetricNames()):
// test_error_rate is a long-range problem's share of test sequences wrong, 0 to 1.
std::optional<SeedSummary> measuredFigure(const ConfigurationResult& result,
                                          const std::string& metric);

std::string resultsText(const ExperimentPlan& plan, const std::vector<ConfigurationResult>& rows);
std::string resultsCsv(const ExperimentPlan& plan, const std::vector<ConfigurationResult>& rows);
std::string resultsJson(const ExperimentPlan& plan, const std::vector<ConfigurationResult>& rows);
std::string progressText(const std::vector<TrialProgress>& rows);
std::string planText(const ExperimentPlan& plan);

}  // namespace mrnn::engine
