#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/store/run_store.h"
#include "engine/training/training_events.h"

namespace mrnn::engine {
class RunCatalogue;
}

namespace mrnn::widgets {

// Follows a run that other processes train (the ranks of the `mrnn train --nproc N` the
// monitor started) through the project's run store, the one channel they write as a
// one-process run does, and turns what is new since the last read into the engine's event
// values, as an in-process TrainingRun publishes them: StartedEvent once the run is known,
// then StepEvent (each rank's throughput included), ValidationEvent and CheckpointEvent in
// step order. Rank 0 writes metrics in batches (~100 points), so steps arrive a few at a time.
//
// Which run: a new run (or the resumed one) whose writer's lock is held by a child of the
// launcher, or one the launcher's output named (`hint`, for a run that ended before a read saw
// its lock). The store has no ETA: it is worked out as the trainer does (engine::runEtaSeconds:
// time per step so far times the steps left).
//
// The constructor reads the store as it is before the launch (on the caller's thread); read()
// opens it read-only each time and may run on a worker thread, one call at a time.
class StoreRunFollower {
 public:
  struct Launch {
    std::string projectFolder;
    // Resuming: the checkpoint (absolute path) the ranks continue from; empty for a new run.
    std::string checkpoint;
    int64_t maxSteps = 0;  // the project's training.max_steps (0: by epochs)
    int64_t epochs = 1;
  };

  explicit StoreRunFollower(Launch launch);

  // The launcher's process id, once it has started.
  void setLauncher(int64_t pid) { launcher_ = pid; }
  // What is new. `hint`: a run id the launcher printed (0: none); `ended`: the launcher has
  // exited, so every rank has and the store holds all it will. Throws engine::StoreError.
  std::vector<engine::TrainingEvent> read(int64_t hint, bool ended);

  int64_t runId() const { return runId_; }
  // The run's record (live status) as the last read saw it.
  const std::optional<engine::RunRecord>& record() const { return record_; }
  int64_t lastStep() const { return lastStep_; }
  // Whether the run has a checkpoint to resume from (one written before this launch counts).
  bool hasCheckpoint() const { return !checkpointSteps_.empty(); }
  double lastWallSeconds() const { return lastWall_; }
  // The run a resume continues (known before the launch when the checkpoint is one of the
  // project's); 0 for a new run.
  int64_t resumedRun() const { return resumedRun_; }

 private:
  using Timeline = std::vector<std::pair<int64_t, engine::TrainingEvent>>;  // by step

  int64_t identify(const engine::RunCatalogue& catalogue, int64_t hint) const;
  void readSteps(const engine::RunStore& store, int rankCount, Timeline& out);
  void readValidations(const engine::RunStore& store, Timeline& out);
  void readCheckpoints(const engine::RunCatalogue& catalogue, bool ended, Timeline& out);

  Launch launch_;
  int64_t launcher_ = 0;
  int64_t newestBefore_ = 0;  // a new run's id is above it
  int64_t resumedRun_ = 0;
  int64_t runId_ = 0;
  bool started_ = false;
  std::optional<engine::RunRecord> record_;
  int64_t lastStep_ = 0;
  double lastWall_ = 0.0;
  int64_t lastValidStep_ = 0;
  double bestValid_ = 0.0;  // bits per symbol; 0: none yet
  // Resuming before the last recorded step: those points stay in the store until the trainer
  // drops them, so steps are read only once train/loss differs from this (points, last step).
  std::optional<std::pair<int64_t, int64_t>> stale_;
  std::map<std::string, int64_t> checkpointSteps_;  // by kind, as last announced
};

}  // namespace mrnn::widgets
