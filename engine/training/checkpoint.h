#pragma once

#include <torch/serialize/input-archive.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/config/model_config.h"
#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"
#include "engine/optim/update_rule.h"

namespace mrnn::engine {

// A checkpoint that cannot be used, in words: missing, truncated or corrupt, of another
// format version, another model or another vocabulary. The message names the file.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Everything besides the weights that a run needs to continue exactly.
struct TrainingSnapshot {
  std::string projectYaml;  // the whole project as trained
  std::string modelYaml;    // the model section alone: compared on load
  std::string vocabulary;   // Vocabulary::serialize()
  int64_t step = 0;
  // Training symbols read so far (the symbols axis); a file from before it was kept reads 0.
  int64_t symbols = 0;
  // Whose run this is: RunStore::projectId() and the run's id. A file without a project id
  // was written before checkpoints carried one.
  std::string projectId;
  int64_t runId = 0;
  // The run's name in its database when the file was written (a trial's is its setting), so
  // that a run recovered from its checkpoints keeps it; empty in a file from before it was kept.
  std::string runName;
  // An imported model's source file (`mrnn import`), absolute; empty for a trained run.
  std::string importedFrom;
  double bestValid = 0.0;      // bits per symbol; 0 when never validated
  int64_t badValidations = 0;  // early stopping's counter
  // A long-range problem's best model's share of sequences wrong (which model is best turns on
  // it); -1 for text, before a validation, and in a file from before it was kept.
  double bestErrorRate = -1.0;
  double wallSeconds = 0.0;  // training time so far
  std::string batcherState;
  std::string scheduleState;
  torch::Tensor rngState;  // the CPU generator (dropout masks on the CPU)
  // The training GPU's generator (dropout masks drawn there; rank 0's with ranks); undefined
  // for a CPU run. A run resumed on a GPU continues its masks exactly; on the CPU it is unused.
  torch::Tensor gpuRngState;
  // Data parallel: every rank's generator, [ranks, bytes] (undefined for one process). A
  // run resumed on as many ranks continues each rank's masks exactly.
  torch::Tensor rankRngStates;
  // Data parallel on GPUs: every rank's GPU generator, [ranks, bytes] (undefined otherwise),
  // so that ranks on GPUs resume their masks exactly too.
  torch::Tensor rankGpuRngStates;
};

// Checkpoint files: a header (tag, format version, length, checksum:
// engine/io/checkpoint_envelope.h) and a LibTorch archive
// holding the snapshot, the model, the update rule's state (a first-order optimiser's under
// "optimizer", Hessian-free's under "hessian_free") and the recurrent state carried across
// windows.
// Written atomically (temporary file, then rename), so a crash never leaves half a file.
class Checkpoint {
 public:
  // Moved, never copied: its archive cannot be copied (clang refuses a defaulted copy of it
  // inside std::optional).
  Checkpoint(Checkpoint&&) = default;
  Checkpoint& operator=(Checkpoint&&) = default;
  Checkpoint(const Checkpoint&) = delete;
  Checkpoint& operator=(const Checkpoint&) = delete;

  // Throws std::runtime_error naming the path when it cannot be written (full disk,
  // unwritable folder); an existing file at `path` is then left as it was.
  static void save(const std::string& path, const TrainingSnapshot& snapshot, LanguageModel& model,
                   const UpdateRule* rule, const ModelState* state);

  // Reads and checks the file; throws CheckpointError.
  static Checkpoint open(const std::string& path);
  // The same for a checkpoint of a run of the project in `projectFolder` (its best, chosen by
  // the run catalogue or named by the user): one that cannot be read is refused naming the
  // run's other checkpoint when that one is whole. The run database is read only then; a
  // project without one, or with one that cannot be read, adds nothing to the refusal.
  static Checkpoint openOfRun(const std::string& path, const std::string& projectFolder);

  const std::string& path() const { return path_; }
  const TrainingSnapshot& snapshot() const { return snapshot_; }
  Vocabulary vocabulary() const;

  // The model this checkpoint holds, for a project whose model section is another: the
  // project's own when they agree, else the one its stored project gives (a run trained
  // before the project was edited, an experiment's trial at its own size, an import).
  ModelConfig modelAsTrained(const ModelConfig& project) const;
  // Throws CheckpointError when the checkpoint was made with another model or vocabulary.
  void checkCompatible(const ModelConfig& model, const Vocabulary& vocabulary) const;
  void loadModel(LanguageModel& model);
  // False when the checkpoint holds no state of this rule's kind (saved outside training, or
  // by a run with another rule).
  bool loadRule(UpdateRule& rule);
  // False when the checkpoint holds no recurrent state (it was saved outside training).
  bool loadState(ModelState& state, const LanguageModel& model);

 private:
  Checkpoint() = default;  // open() fills one
  std::string path_;
  TrainingSnapshot snapshot_;
  torch::serialize::InputArchive archive_;
};

std::string modelSectionYaml(const ModelConfig& model);

}  // namespace mrnn::engine
