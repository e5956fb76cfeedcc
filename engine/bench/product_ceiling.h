#pragma once

#include <torch/types.h>

#include <cstdint>

namespace mrnn::engine {

// The machine's own limit for the work a recurrent window is made of: the GFLOP/s of a large
// square product (torch::mm, the BLAS and thread count the engine's own products get, or the
// GPU's cuBLAS), median of `repeats` after a warm-up. Every bench row's GFLOP/s is read as a
// share of it, so a table says how far each subject is from what the machine can do.
constexpr int64_t kCeilingProductSize = 2048;     // on the CPU
constexpr int64_t kGpuCeilingProductSize = 8192;  // on a GPU: large enough to fill an H100

// On a CUDA device each repeat times several products between two synchronisations, so that
// the launch and the wait do not count; `dtype` float32 (LibTorch's default float32 matmul
// precision) or bfloat16 (the products bf16 autocast runs).
double productCeilingGflops(int64_t size = kCeilingProductSize, int repeats = 5,
                            const torch::Device& device = torch::kCPU,
                            torch::Dtype dtype = torch::kFloat32);

}  // namespace mrnn::engine
