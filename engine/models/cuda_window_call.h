#pragma once

// Internal to the CUDA fused windows' glue (cuda_fused_windows.cpp,
// cuda_fused_gru_windows.cpp), compiled only where MRNN_HAVE_CUDA_KERNELS is defined: what
// hands a LibTorch CUDA tensor's data to engine/cuda.

#include <torch/types.h>

#include "engine/cuda/cuda_context.h"
#include "engine/cuda/cuda_window_ops.h"

namespace mrnn::engine::cuda_glue {

inline float* floats(torch::Tensor& t) {
  return t.data_ptr<float>();
}
inline const float* floats(const torch::Tensor& t) {
  return t.data_ptr<float>();
}

// LibTorch's current stream on a device is its default (legacy) stream unless a caller
// chose another; this engine never does, so the kernels run in order with LibTorch's work.
inline cuda::Stream libtorchStream() {
  return nullptr;
}

// The window operations on the tensors' device, with that device current for the call:
// the thread's cuBLAS handle and LibTorch's stream.
struct DeviceCall {
  explicit DeviceCall(const torch::Tensor& t)
      : scope(t.device().index()),
        ops(cuda::threadBlasHandle(t.device().index()), libtorchStream()) {}
  cuda::DeviceScope scope;
  cuda::CudaWindowOps ops;
};

}  // namespace mrnn::engine::cuda_glue
