#pragma once

// Where a test runs the GPU windows of engine/cuda: buffers, the windows' operations, and a
// wait. HostWindowDevice runs them on the CPU (every machine); CudaWindowDevice on a GPU.
// The same checks (cuda_window_checks.h) run on both.

#include <torch/types.h>

#include <cstdint>

#include "engine/cuda/window_ops.h"

namespace mrnn::test {

class WindowDevice {
 public:
  virtual ~WindowDevice() = default;

  // A device copy of a CPU tensor (as float32), freed with the device.
  virtual float* upload(const torch::Tensor& host) = 0;
  // n floats filled with NaN, freed with the device: a window that reads what it has not
  // written, or accumulates onto it, poisons its results.
  virtual float* scratch(int64_t n) = 0;
  // A CPU copy of numel(shape) floats at p, after finish().
  virtual torch::Tensor download(const float* p, torch::IntArrayRef shape) = 0;
  virtual engine::cuda::WindowOps& ops() = 0;
  // Waits for everything enqueued; fails the test where the device saw a write outside
  // every buffer.
  virtual void finish() = 0;
};

}  // namespace mrnn::test
