#pragma once

#include <memory>
#include <string>

#include "engine/config/project_file.h"
#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"

namespace mrnn::engine {

// A trained model ready for analysis: the project, the vocabulary it was trained with (from
// the checkpoint, so no corpus is read) and its weights, in eval mode, on the CPU.
struct LoadedModel {
  Project project;
  Vocabulary vocabulary;
  std::unique_ptr<LanguageModel> model;
  std::string checkpoint;  // the file it came from
  int64_t runId = 0;       // the run that wrote it (0 when saved outside training)
};

// `checkpoint` empty: the best (else latest) checkpoint of run `runId`, or of the newest run
// when runId is 0 (RunCatalogue::checkpointToAnalyse; the project folder is only read).
// Throws CheckpointError / std::runtime_error naming what is missing.
LoadedModel loadModelForAnalysis(const std::string& projectFile, int64_t runId = 0,
                                 const std::string& checkpoint = "");

// The same, from a checkpoint alone: its stored project gives the model.
LoadedModel loadModelFromCheckpoint(const std::string& checkpoint);

}  // namespace mrnn::engine
