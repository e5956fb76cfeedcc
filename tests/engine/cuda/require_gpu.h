#pragma once

// Skips the calling test where no GPU can run it, with mrnn's own reason: a LibTorch without
// CUDA, or one with CUDA on a machine whose driver shows no GPU. The two need different fixes
// on a GPU machine whose time is counted.

#include <torch/torch.h>

#include "engine/devices/gpu_inventory.h"
#include "engine/models/cuda_fused_window.h"
#include "test_harness.h"

namespace mrnn::test {

inline void requireGpu() {
  const auto devices = engine::listComputeDevices();
  if (devices.gpus.empty()) MRNN_SKIP(devices.unavailableReason);
}

// The first GPU, where this build has the fused CUDA windows as well; else the test skips.
inline torch::Device gpuWithKernels() {
  requireGpu();
  const torch::Device gpu(torch::kCUDA, 0);
  if (!engine::cudaFusedWindowApplies({torch::zeros({1, 1, 1}, torch::TensorOptions(gpu))})) {
    MRNN_SKIP("this build has no CUDA kernels (MRNN_CUDA found no nvcc)");
  }
  return gpu;
}

}  // namespace mrnn::test
