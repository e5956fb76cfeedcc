#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/training_config.h"

namespace mrnn::engine {

class RunCatalogue;
struct TrainingSnapshot;  // checkpoint.h: kept out of the widgets' view of trainer.h (Qt's slots)

// How long a run trains, when a command or a panel says so (`--max-steps`, `--epochs`,
// `--max-seconds`, the training panel's fields). Unset fields leave the settings' own.
struct RunLength {
  std::optional<int64_t> epochs;
  std::optional<int64_t> maxSteps;
  std::optional<double> maxSeconds;  // the run's training time in all, resumes included
  // Stop (resumable) once the run has trained this many steps, its own end unchanged: an
  // experiment's successive halving trains a trial to a rung, then goes on from there. 0: none.
  int64_t stopAt = 0;
};

// The length `training` states, as a RunLength that gives it to any other settings.
RunLength lengthOf(const TrainingConfig& training);

// `training` made to run for `length`. Epochs alone mean that many epochs (a step limit the
// settings had no longer applies): "--epochs 20" is read as 20 epochs, not as a limit a
// max_steps in the file would silently override.
void applyRunLength(TrainingConfig& training, const RunLength& length);

// The settings a resumed run trains with: those it started with (`started`, its checkpoint's
// copy of the project), so that a project edited since, or a run started with a --max-steps
// the file lacks, does not change the run half-way (its optimiser, learning-rate schedule,
// batches or end). Where it runs comes from `current`: device, threads and bf16 (a run trained
// on a GPU continues on a laptop); its length from `length` where given. `differences`
// receives, for the log, each setting `current` gives otherwise that the run keeps, as
// "optimizer.lr 0.002 (the run's: 0.001)".
TrainingConfig resumedTraining(const TrainingConfig& current, const TrainingConfig& started,
                               const RunLength& length, std::vector<std::string>* differences);

// A checkpoint continues only the run it was written for: a file stamped by another
// project, or an unstamped (older) file outside this project's folder for its run, would
// silently replace this project's run of the same number. Throws CheckpointError saying
// which, and where to resume it instead.
void checkCheckpointBelongs(const TrainingSnapshot& snapshot, const std::string& path,
                            const RunCatalogue& catalogue);

// The trainer's note on those differences (empty when there are none): that run `runId` keeps
// its own, that a new run would take the project's, and how to change its length.
std::string keptSettingsNote(int64_t runId, const std::vector<std::string>& differences);

}  // namespace mrnn::engine
