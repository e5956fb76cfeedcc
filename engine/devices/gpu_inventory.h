#pragma once

#include <cstdint>
#include <string>
#include <vector>

// The GPUs a process can train on, without LibTorch's headers (the GUI's device list
// includes this; engine/devices/compute_device.h turns names into LibTorch devices).

namespace mrnn::engine {

// One GPU as the process sees it.
struct GpuDescription {
  std::string id;           // "cuda:N"
  std::string name;         // e.g. "NVIDIA H100 80GB HBM3"; "GPU N" where no name is known
  int64_t memoryBytes = 0;  // 0 where unknown
};

// The GPUs this build and machine can train on, or why there are none.
struct ComputeDevices {
  std::vector<GpuDescription> gpus;
  // Empty when gpus is not; else a researcher's sentence: "this build's LibTorch has no
  // CUDA" or "no CUDA GPU is visible to this process (...)".
  std::string unavailableReason;
};

// Asks LibTorch (and, where this build has the CUDA kernels, the CUDA runtime for names and
// memory) anew each call, in milliseconds; a caller that asks often keeps the answer. Never
// initialises CUDA when LibTorch has none.
ComputeDevices listComputeDevices();

}  // namespace mrnn::engine
