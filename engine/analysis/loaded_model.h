#pragma once

#include <torch/types.h>

#include <memory>
#include <string>

#include "engine/config/project_file.h"
#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"

namespace mrnn::engine {

// A trained model ready for analysis: the project, the vocabulary it was trained with (from
// the checkpoint, so no corpus is read) and its weights, in eval mode, on the device asked
// for (the CPU unless told otherwise).
struct LoadedModel {
  Project project;
  Vocabulary vocabulary;
  std::unique_ptr<LanguageModel> model;
  std::string checkpoint;  // the file it came from
  int64_t runId = 0;       // the run that wrote it (0 when saved outside training)
};

// Puts a model whose weights were just read (onto the CPU: checkpoints are always read there,
// so one written by a GPU run opens on any machine) on `device`, in eval mode. Every analysis
// then follows the model (modelDevice()): what it computes is the same on any device, to
// float rounding. Resolve a device's name first with resolveComputeDevice
// (engine/devices/compute_device.h), which says why a build or machine cannot run there.
void placeForAnalysis(LanguageModel& model, const torch::Device& device);

// `checkpoint` empty: the best (else latest) checkpoint of run `runId`, or of the newest run
// when runId is 0 (RunCatalogue::checkpointToAnalyse; the project folder is only read).
// The weights are read onto the CPU, then placed on `device` (placeForAnalysis).
// Throws CheckpointError / std::runtime_error naming what is missing.
LoadedModel loadModelForAnalysis(const std::string& projectFile, int64_t runId = 0,
                                 const std::string& checkpoint = "",
                                 const torch::Device& device = torch::kCPU);

// The same, from a checkpoint alone: its stored project gives the model.
LoadedModel loadModelFromCheckpoint(const std::string& checkpoint,
                                    const torch::Device& device = torch::kCPU);

}  // namespace mrnn::engine
