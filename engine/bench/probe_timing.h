#pragma once

#include <chrono>
#include <cstdint>

#include <torch/cuda.h>
#include <torch/types.h>

namespace mrnn::engine {

// One window of random symbols, as the peer trains on: inputs [T, B] and the next symbols.
struct ProbeWindow {
  torch::Tensor inputs;
  torch::Tensor targets;
};

inline ProbeWindow randomWindow(int64_t vocab, int64_t bptt, int64_t batch,
                                const torch::Device& device) {
  const auto data = torch::randint(0, vocab, {bptt + 1, batch},
                                   torch::TensorOptions(torch::kLong).device(device));
  return {data.narrow(0, 0, bptt), data.narrow(0, 1, bptt)};
}

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
