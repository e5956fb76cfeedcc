#pragma once

#include <torch/types.h>

#include <initializer_list>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The fused windows on a GPU (engine/cuda: per step one cuBLAS product per recurrent matrix
// and a few fused element-wise kernels, forward and backward; weight gradients as one product
// over the window), one glue file per cell (cuda_fused_<cell>_window.h), for every cell with a
// CPU fused window. The glue hands those kernels the tensors' device pointers and LibTorch's
// default stream, so it needs no LibTorch CUDA headers and builds beside a CPU-only LibTorch
// wherever nvcc built engine/cuda.

// Whether this build has the CUDA kernels and these tensors suit them: all defined, float32
// (or bfloat16 under CUDA bf16 autocast, when the windows multiply at bfloat16), on one CUDA
// device, the first (the window's projected inputs) with at least one step. Anything else
// (double, float16, the CPU) runs another path.
bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor> tensors);

}  // namespace mrnn::engine
