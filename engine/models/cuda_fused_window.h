#pragma once

#include <torch/types.h>

#include <initializer_list>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The fused windows on a GPU (engine/cuda: per step one cuBLAS product per recurrent matrix
// and a few fused element-wise kernels, forward and backward; weight gradients as one product
// over the window), for every cell with a CPU fused window. The glue (cuda_fused_windows.cpp,
// one autograd Function for all, gpu_window_function.h) hands those kernels the tensors'
// device pointers and LibTorch's default stream, so it needs no LibTorch CUDA headers and
// builds beside a CPU-only LibTorch wherever nvcc built engine/cuda. Without engine/cuda,
// CMake builds no_cuda_windows.cpp instead, where nothing applies.

// Whether this build has the CUDA kernels and these tensors suit them: all defined, float32
// (or bfloat16 under CUDA bf16 autocast, when the windows multiply at bfloat16), on one CUDA
// device, the first (the window's projected inputs) with at least one step. Anything else
// (double, float16, the CPU) runs another path.
bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor> tensors);

// The window of a cell (its layout's descriptor, e.g. MlstmWindow in
// engine/windows/mlstm_window_layout.h) on CUDA tensors; only where cudaFusedWindowApplies
// says so. The mask is an undefined tensor for none.
template <typename Window>
FusedWindowResult cudaFusedWindow(const WindowTensors<Window>& inputs);

// Every cell whose window cudaFusedWindow runs: X(descriptor) each, for the files that
// instantiate it (cuda_fused_windows.cpp, no_cuda_windows.cpp).
#define MRNN_GPU_WINDOW_CELLS(X) \
  X(RnnWindow)                   \
  X(MrnnWindow)                  \
  X(GruWindow)                   \
  X(MgruWindow)                  \
  X(TmgruWindow)                 \
  X(LstmWindow)                  \
  X(TmlstmWindow)                \
  X(MlstmWindow)

}  // namespace mrnn::engine
