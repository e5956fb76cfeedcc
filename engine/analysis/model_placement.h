#pragma once

#include <torch/types.h>

#include <cstdint>
#include <string>

#include "engine/analysis/loaded_model.h"

namespace mrnn::engine {

// Puts a model whose weights were just read (onto the CPU: checkpoints are always read there,
// so one written by a GPU run opens on any machine) on `device`, in eval mode. Every analysis
// then follows the model (modelDevice()): what it computes is the same on any device, to
// float rounding. Resolve a device's name first with resolveComputeDevice
// (engine/devices/compute_device.h), which says why a build or machine cannot run there.
void placeForAnalysis(LanguageModel& model, const torch::Device& device);

// loadModelForAnalysis and loadModelFromCheckpoint (loaded_model.h), the weights then placed
// on `device` (placeForAnalysis).
LoadedModel loadModelForAnalysis(const std::string& projectFile, int64_t runId,
                                 const std::string& checkpoint, const torch::Device& device);
LoadedModel loadModelFromCheckpoint(const std::string& checkpoint, const torch::Device& device);

}  // namespace mrnn::engine
