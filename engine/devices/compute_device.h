#pragma once

#include <torch/types.h>

#include <cstdint>
#include <string>

#include "engine/devices/gpu_inventory.h"

namespace mrnn::engine {

// "cpu", "cuda" or "cuda:N" as a LibTorch device ("cuda" is cuda:0). Throws
// std::invalid_argument naming `where` (a flag, a YAML key) and the text when it is no
// device name, and std::runtime_error with the reason when this build or machine cannot
// run there (no CUDA, or no GPU N: "cuda:3, but this machine has 1 GPU (cuda:0)").
torch::Device resolveComputeDevice(const std::string& text, const std::string& where);

// The bytes in use on a GPU (the driver's total minus free: this process's LibTorch cache and
// any other process's), or -1 where unknown (the CPU, or a build without engine/cuda). A
// benchmark's child process reads its own footprint this way.
int64_t gpuMemoryInUse(const torch::Device& device);

// Throws ResourceError (machine_resources.h) when `bytes` exceed a GPU's whole memory, in
// the words of requireMemory: "<what> needs about 2.5 TB; cuda:0 (NVIDIA H100 80GB HBM3) has
// 85.0 GB. <advice>". Nothing is checked where the GPU's size is unknown; what fits in less
// than the whole is LibTorch's allocator's to find (the trainer reports that, too).
void requireGpuMemory(const torch::Device& device, double bytes, const std::string& what,
                      const std::string& advice);

// A device's name for messages and logs: "cpu", or "cuda:0 (NVIDIA H100 80GB HBM3)".
std::string describeComputeDevice(const torch::Device& device);

}  // namespace mrnn::engine
