#pragma once

#include "engine/cuda/cuda_handles.h"

namespace mrnn::engine::cuda {

// Makes `device` the calling thread's current CUDA device for the scope (kernels launch
// and cuBLAS handles bind there), and restores the previous one after.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

// The calling thread's cuBLAS handle for `device` (the current device, inside a
// DeviceScope), made on first use and destroyed when the thread ends. A handle must not be
// used by two threads at once, and making one costs milliseconds: each thread keeps its own,
// as LibTorch does. Full float32 math (no TF32), as LibTorch's own products by default.
BlasHandle threadBlasHandle(int device);

}  // namespace mrnn::engine::cuda
