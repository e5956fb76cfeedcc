#pragma once

// Skips the calling test where no GPU can run it, with mrnn's own reason: a LibTorch without
// CUDA, or one with CUDA on a machine whose driver shows no GPU. The two need different fixes
// on a GPU machine whose time is counted.

#include "engine/devices/gpu_inventory.h"
#include "test_harness.h"

namespace mrnn::test {

inline void requireGpu() {
  const auto devices = engine::listComputeDevices();
  if (devices.gpus.empty()) MRNN_SKIP(devices.unavailableReason);
}

}  // namespace mrnn::test
