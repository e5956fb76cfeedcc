#pragma once

#include <torch/types.h>

#include "command_line.h"
#include "engine/devices/compute_device.h"
#include "option_values.h"

namespace mrnn::app {

// --device of the analysis commands (eval, sample, score, analyze): where the model is placed
// after its checkpoint is read on the CPU; "cpu" when absent. A malformed name is a UsageError
// (exit 2); a device this build or machine lacks is a std::runtime_error with the reason,
// naming the flag ("--device is 'cuda', but this build's LibTorch has no CUDA; use cpu"),
// which main() prints (exit 1). Asked before any model is read, so a refusal costs nothing.
inline torch::Device analysisDevice(const CommandLine& args) {
  return engine::resolveComputeDevice(deviceOption(args), "--device");
}

}  // namespace mrnn::app
