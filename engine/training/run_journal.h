#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/project_file.h"
#include "engine/store/deferred_writes.h"
#include "engine/store/run_lock.h"
#include "engine/store/run_store.h"

namespace mrnn::engine {

class Collective;
class RunCatalogue;
struct LossFigures;
struct Project;
struct StepEvent;
struct TrainingSnapshot;

// A training run's record in its project's store, as the loop keeps it: the run (created, or
// reopened for a resume, with this process as its one writer), its status, its metrics
// (buffered and written a hundred at a time), best validation, checkpoints, progress and test
// figure. Rank 0 (or the only process) keeps the record; every other rank's journal writes
// nothing, so the loop calls it the same way on every rank. The store is opened (made, for a
// project's first run) only when the run is created or reopened: a run refused before that
// leaves the project's folder as it was. Once the run trains, another program holding the
// database does not stop it: its records wait in memory (DeferredWrites) and `say` tells the
// researcher, a note when they start waiting and another when they are written (the second
// replaces the first where a note stays in view).
class RunJournal {
 public:
  using Say = std::function<void(const std::string& line, bool note)>;
  RunJournal(const std::string& projectFolder, bool writes, Say say = {});
  ~RunJournal();
  RunJournal(const RunJournal&) = delete;
  RunJournal& operator=(const RunJournal&) = delete;

  bool writes() const { return writes_; }
  // 0 until the run is created, or a resumed run has been continued (rewindTo): a resume
  // refused before that leaves the run's record as it was.
  int64_t runId() const { return runId_; }
  // Rank 0 made or opened the run: every rank learns its id (and rank 0 that all are here).
  // Every rank must call it.
  void shareRunId(Collective& collective);
  // The store's project id (checkpoints carry it); empty on a rank that writes nothing.
  std::string projectId() const;
  // The run's name when it was created or reopened (checkpoints carry it, for a recovery).
  const std::string& runName() const { return runName_; }

  // A new run of `project`, its model of `parameters`.
  void create(const Project& project, int64_t parameters);
  // The run `snapshot` (the checkpoint at `path`) was written for, checked to be this
  // project's and not an imported run, then locked. Throws naming what is wrong.
  RunRecord reopen(const TrainingSnapshot& snapshot, const std::string& path);
  // A resume of `record`'s run from `step`: the run is this journal's from here; the steps
  // after `step` are trained again (their points go), and the test figure the run ended with
  // no longer describes it.
  void rewindTo(int64_t step, const RunRecord& record);
  // The settings the run trains with from here (a new length, another device), when they
  // differ from `record`'s.
  void recordSettings(const std::string& configYaml, const RunRecord& record);

  void setStatus(RunStatus status, const std::string& reason = "");
  // The run trains from here: its checkpoint folder exists and its status says Running.
  void startRunning();
  // A training step's figures as the store names them (train/loss, train/bpc, the learning
  // rate where the rule has one, the gradient norm, symbols/s, symbols read, the update's own
  // figures, each rank's symbols/s).
  void recordStep(const StepEvent& event, bool usesLearningRate);
  // A validation's figures, written at once.
  void recordValidation(const LossFigures& figures, int64_t step, double epoch, double wallSeconds);
  void metric(const MetricPoint& point);
  void flush();
  void setBestValid(double bitsPerSymbol);
  void updateProgress(int64_t step, double wallSeconds);
  // The checkpoint of `kind` at `path` (stored relative to the project's folder).
  void recordCheckpoint(const std::string& kind, const std::string& path, int64_t step,
                        double bestValid);
  void recordTest(const LossFigures& figures, int64_t step, double epoch, double wallSeconds);
  // The run failed for `reason`: what is pending and the status, as far as the store takes
  // them within a second (the store may be what failed). Never throws.
  void fail(const std::string& reason) noexcept;
  // The run ends: what waits for a locked database is written, trying for `patience` or until
  // `giveUp` says so. When it cannot be, says what was lost; the run then reads as interrupted
  // (its writer's lock goes with this journal) and resumes from its latest checkpoint.
  void settle(std::chrono::steady_clock::duration patience,
              const std::function<bool()>& giveUp = {});

 private:
  void open();
  // Writes through `deferred_` once the run trains (directly before), saying when records
  // start or stop waiting.
  void write(DeferredWrites::Write write, int64_t weight = 1, const char* kind = nullptr,
             std::shared_ptr<const std::vector<MetricPoint>> points = nullptr);
  // The metric points still waiting when the run can wait no longer, kept in its checkpoint
  // folder (RunPaths::unwrittenMetrics); the file's path, or "" when none were kept.
  std::string keepUnwrittenMetrics();
  // Those a run's earlier stop kept, written to the store as it resumes.
  void writeKeptMetrics();

  std::string folder_;
  bool writes_ = false;
  std::unique_ptr<RunCatalogue> catalogue_;
  RunStore* store_ = nullptr;
  RunLock lock_;  // this process is the run's one writer while it is held
  std::unique_ptr<DeferredWrites> deferred_;  // from startRunning()
  Say say_;
  std::vector<MetricPoint> pending_;
  int64_t runId_ = 0;
  std::string runName_;              // as recorded when the run was created or reopened
  std::optional<TrialOfRun> trial_;  // linked to the run once it trains
};

}  // namespace mrnn::engine
