#pragma once

#include <chrono>
#include <cstdint>

#include <torch/cuda.h>
#include <torch/types.h>

namespace mrnn::engine {

// Runs `work` once to warm up, then `repeats` times under the clock, and returns the
// seconds those took; on CUDA the clock waits for the device at both ends.
template <typename Work>
double timeRepeated(const torch::Device& device, int64_t repeats, const Work& work) {
  const auto sync = [&] {
    if (device.is_cuda()) torch::cuda::synchronize();
  };
  work();
  sync();
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < repeats; ++i) work();
  sync();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace mrnn::engine
