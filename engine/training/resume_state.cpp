#include "engine/training/resume_state.h"

#include <stdexcept>

#include <torch/torch.h>

#include "engine/config/model_changes.h"
#include "engine/config/model_names.h"
#include "engine/data/window_source.h"
#include "engine/optim/lr_schedule.h"
#include "engine/optim/update_rule.h"
#include "engine/training/data_parallel.h"
#include "engine/training/run_counters.h"
#include "engine/training/training_data.h"
#include "engine/training/training_parts.h"
#include "engine/training/validation_book.h"

namespace mrnn::engine {
namespace {

void restoreGenerators(const TrainingSnapshot& s, const torch::Device& device, uint64_t seed,
                       int rank, int ranks) {
  // Every state is copied before it is set: PyTorch 2's set_state reads a byte tensor's storage
  // offset in units of its whole state, so rank 1's row of the table (or a checkpoint's view)
  // pointed it far outside the bytes (a crash on resume under --nproc 2).
  at::Generator generator = at::detail::getDefaultCPUGenerator();  // a handle: shared state
  if (s.rankRngStates.defined() && s.rankRngStates.size(0) == ranks) {
    generator.set_state(s.rankRngStates[rank].clone());
  } else if (rank == 0 && s.rngState.defined()) {
    generator.set_state(s.rngState.clone());
  } else if (rank > 0) {
    // Another rank count wrote it: this rank's masks start a fresh, still reproducible draw.
    torch::manual_seed(seed + 7919 * rank + 104729 * s.step);
  }
  // Masks drawn on a GPU come from its own generator, restored as the CPU's is above: each
  // rank its own when as many ranks wrote the checkpoint, one process's (rank 0 of several
  // takes it), otherwise a fresh, still reproducible draw.
  if (device.is_cpu()) return;
  at::Generator gpu = at::globalContext().defaultGenerator(device);
  if (s.rankGpuRngStates.defined() && s.rankGpuRngStates.size(0) == ranks) {
    gpu.set_state(s.rankGpuRngStates[rank].clone());
  } else if (rank == 0 && s.gpuRngState.defined()) {
    gpu.set_state(s.gpuRngState.clone());
  } else {
    gpu.set_current_seed(seed + 7919 * rank + 104729 * s.step);
  }
}

}  // namespace

ResumePlan planResume(Project& project, const std::string& path, const RunLength& length) {
  ResumePlan plan;
  plan.checkpoint.emplace(Checkpoint::open(path));
  const TrainingSnapshot& s = plan.checkpoint->snapshot();
  try {
    plan.recorded = parseProject(s.projectYaml, path + " (stored project)");
  } catch (const std::exception& error) {
    // Continuing under the project's settings would change the run half-way (its length, its
    // optimiser) with only a note to say so: refused, with the way on.
    throw CheckpointError("run " + std::to_string(s.runId) +
                          "'s own settings cannot be read from its checkpoint (" + error.what() +
                          "); a resume keeps a run's settings and will not swap in the "
                          "project's: start a new run from the project instead");
  }
  std::vector<std::string> differences;
  project.training =
      resumedTraining(project.training, plan.recorded.training, length, &differences);
  plan.settingsNote = keptSettingsNote(s.runId, differences);
  // The model too is the run's own: a layer added in the composer since is a new run's.
  const std::string projectModel = modelSectionYaml(project.model);
  if (projectModel != s.modelYaml) {
    plan.modelNote = "run " + std::to_string(s.runId) + " continues as the " +
                     modelTypeSummary(plan.recorded.model) +
                     " it started as; the project's model has changed since (" +
                     modelChangeSummary(s.modelYaml, projectModel) + "), and a new run trains that";
    project.model = plan.recorded.model;
  }
  plan.recorded.training = project.training;
  return plan;
}

void continueRun(Checkpoint& checkpoint, const Project& project, TrainingParts& parts, int rank,
                 int ranks, RunCounters& counters, ValidationBook& book,
                 const std::function<void(const std::string&)>& log) {
  const TrainingSnapshot& s = checkpoint.snapshot();
  checkpoint.checkCompatible(project.model, parts.data->vocabulary());
  parts.model->to(torch::kCPU);
  checkpoint.loadModel(*parts.model);
  parts.model->to(parts.device);
  if (!checkpoint.loadRule(*parts.rule)) {
    log("the checkpoint holds no optimiser state; the optimiser starts afresh");
  }
  // The checkpoint holds the whole batch's state, whatever the rank count that wrote it.
  ModelState whole = parts.model->initialState(project.training.batchSize);
  parts.state = checkpoint.loadState(whole, *parts.model)
                    ? stateRows(whole, parts.shard.begin, parts.shard.count)
                    : parts.model->initialState(parts.shard.count);
  try {
    parts.batcher->restoreState(s.batcherState);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error("run " + std::to_string(s.runId) +
                             " cannot go on where it stopped: " + error.what() +
                             "; put back the data it began with, or start a new run");
  }
  parts.schedule->restoreState(s.scheduleState);
  restoreGenerators(s, parts.device, project.training.seed, rank, ranks);
  counters = {s.step, s.symbols, s.wallSeconds};
  book.restore(s.bestValid, s.badValidations, s.bestErrorRate);
}

TrainingSnapshot runSnapshot(const Project& project, const TrainingParts& parts,
                             const RunCounters& counters, const ValidationBook& book, int64_t runId,
                             const std::string& projectId) {
  TrainingSnapshot snapshot;
  snapshot.projectYaml = projectToYaml(project);
  snapshot.modelYaml = modelSectionYaml(project.model);
  snapshot.vocabulary = parts.data->vocabulary().serialize();
  snapshot.step = counters.step;
  snapshot.symbols = counters.symbols;
  snapshot.runId = runId;
  snapshot.projectId = projectId;
  snapshot.bestValid = book.best();
  snapshot.badValidations = book.badValidations();
  snapshot.bestErrorRate = book.bestErrorRate();
  snapshot.wallSeconds = counters.wallSeconds;
  snapshot.batcherState = parts.batcher->saveState();
  snapshot.scheduleState = parts.schedule->saveState();
  snapshot.rngState = at::detail::getDefaultCPUGenerator().get_state();
  if (!parts.device.is_cpu()) {  // this process's: rank 0's, as rngState is
    snapshot.gpuRngState = at::globalContext().defaultGenerator(parts.device).get_state();
  }
  return snapshot;
}

}  // namespace mrnn::engine
