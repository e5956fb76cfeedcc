#pragma once

#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/models/language_model.h"
#include "engine/runtime/job_context.h"
#include "engine/training/data_parallel.h"
#include "engine/training/metrics.h"
#include "engine/training/training_data.h"
#include "engine/training/window_objective.h"

namespace mrnn::engine {

class Collective;
class GradientBuckets;
class LoadFollowingThreads;
class LrSchedule;
class UpdateRule;
class WindowSource;
struct Project;

// What a run trains with, built from its project for this process's rank: the device and its
// threads, the corpus, the model (the same parameters on every rank), the update rule, the
// windows, the learning-rate schedule, and this rank's share of the batch and its state.
struct TrainingParts {
  TrainingParts();
  ~TrainingParts();
  TrainingParts(TrainingParts&&) noexcept;
  TrainingParts& operator=(TrainingParts&&) noexcept;

  torch::Device device = torch::kCPU;
  // "hidden size H, N parameters, batch B x bptt T": what memory errors name.
  std::string sizeText;
  // training.threads 0 on one process's CPU: the threads follow the machine's load.
  std::shared_ptr<LoadFollowingThreads> threads;
  std::unique_ptr<TrainingData> data;
  std::unique_ptr<LanguageModel> model;
  std::unique_ptr<UpdateRule> rule;
  std::unique_ptr<WindowSource> batcher;
  std::unique_ptr<LrSchedule> schedule;
  // With ranks, a one-window update's gradient is summed while its backward runs.
  std::unique_ptr<GradientBuckets> buckets;
  StreamShard shard;
  ModelState state;
  int64_t totalSteps = 0;  // what the ETA and the schedule count to

  // The epoch the windows have reached, with its fraction.
  double epochNow() const;
  // The next update's windows on the device, as many as the rule reads; fewer (none) where
  // `done` says the run ends first (a window that would start the next epoch is put back).
  std::vector<ObjectiveWindow> nextWindows(bool carryState, const std::function<bool()>& done);
  int64_t vocabularySize() const;
  // The weights of the checkpoint at `path` into the model, where it exists.
  void loadWeights(const std::string& path);
  // How an update reads this rank's windows: its share of the batch, the rule's shape, the
  // gradient buckets, bf16 autocast.
  ObjectiveOptions objectiveOptions(bool bf16) const;
  // A held-out split's figures by this rank's share of `collective`, reporting to `job`:
  // `batch` streams of `bptt`, the first `maxSymbols` (0: all).
  LossFigures evaluate(TrainingData::HeldOut split, int64_t batch, int64_t bptt, int64_t maxSymbols,
                       Collective& collective, JobContext& job);
  // For the log: "mlstm 256 (N parameters) on <data>, vocabulary V, device D[, rank r of n
  // (streams a-b)]".
  std::string description(const Project& project, const Collective& collective) const;
};

// Builds them, checking first that the model fits the machine's (or the GPU's) memory, and
// seeds the generators as the run's seed says (each rank its own masks). `log` gets what a
// researcher should read (the thread count, a vocabulary size the corpus replaced). `stop` is
// asked while the corpus is read (TrainingData).
TrainingParts buildTrainingParts(const Project& project, Collective& collective,
                                 const std::function<void(const std::string&)>& log,
                                 const StopCheck& stop = {});

}  // namespace mrnn::engine
