#pragma once

#include <functional>
#include <optional>
#include <string>

#include "engine/config/project_file.h"
#include "engine/training/checkpoint.h"
#include "engine/training/resumed_training.h"

namespace mrnn::engine {

struct RunCounters;
struct TrainingParts;
class ValidationBook;

// What a checkpoint keeps of a training run, and how a resume takes it back: the pair kept
// side by side so that what is saved and what is restored cannot drift apart.

// A resume of the checkpoint at `path`, opened before the run is built: the run trains with
// the settings it started with (resumedTraining) and as the model it started as.
struct ResumePlan {
  std::optional<Checkpoint> checkpoint;  // read into the run once it is built, then let go
  // What the project now sets otherwise than the run: said once the run is ours.
  std::string settingsNote;
  std::string modelNote;  // the project's model changed since the run started
  // The project the run started with, its training now the run's: what its record says
  // once the run is ours (a new length, another device).
  Project recorded;
};

// Opens the checkpoint and makes `project` the run's own (its training settings, its model).
// Throws CheckpointError when the run's settings cannot be read from it.
ResumePlan planResume(Project& project, const std::string& path, const RunLength& length);

// The run's weights, optimiser, this rank's rows of the carried state, data position,
// schedule, generators (each rank's own where as many ranks wrote it) and counters, from
// `checkpoint` (checked against the model and vocabulary first).
void continueRun(Checkpoint& checkpoint, const Project& project, TrainingParts& parts, int rank,
                 int ranks, RunCounters& counters, ValidationBook& book,
                 const std::function<void(const std::string&)>& log);

// What a checkpoint of the run holds at this step, this process's generators included (the
// other ranks' are the caller's to gather).
TrainingSnapshot runSnapshot(const Project& project, const TrainingParts& parts,
                             const RunCounters& counters, const ValidationBook& book, int64_t runId,
                             const std::string& projectId);

}  // namespace mrnn::engine
