#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engine/config/project_file.h"
#include "engine/data/vocabulary.h"

namespace mrnn::engine {

class LanguageModel;  // engine/models/language_model.h: LibTorch stays out of this header

// A trained model ready for analysis: the project, the vocabulary it was trained with (from
// the checkpoint, so no corpus is read) and its weights, in eval mode, on the device asked
// for (the CPU unless told otherwise: engine/analysis/model_placement.h). A handle the GUI
// holds and passes to the analyses without seeing a tensor.
struct LoadedModel {
  LoadedModel();
  ~LoadedModel();
  LoadedModel(LoadedModel&&) noexcept;
  LoadedModel& operator=(LoadedModel&&) noexcept;

  // The model's recurrent layers, and its weights' count.
  size_t layerCount() const;
  int64_t parameterCount() const;

  Project project;
  Vocabulary vocabulary;
  std::unique_ptr<LanguageModel> model;
  std::string checkpoint;  // the file it came from
  int64_t runId = 0;       // the run that wrote it (0 when saved outside training)
};

// `checkpoint` empty: the best (else latest) checkpoint of run `runId`, or of the newest run
// when runId is 0 (RunCatalogue::checkpointToAnalyse; the project folder is only read).
// The weights are read onto the CPU, where the model stays. Throws CheckpointError /
// std::runtime_error naming what is missing.
LoadedModel loadModelForAnalysis(const std::string& projectFile, int64_t runId = 0,
                                 const std::string& checkpoint = "");

// The same, from a checkpoint alone: its stored project gives the model.
LoadedModel loadModelFromCheckpoint(const std::string& checkpoint);

}  // namespace mrnn::engine
