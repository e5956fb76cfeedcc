#pragma once

// Internal to the CUDA fused windows' glue (cuda_fused_windows.cpp,
// cuda_fused_mogrifier_window.cpp), built only where nvcc built engine/cuda: what hands a
// LibTorch CUDA tensor's data to engine/cuda.

#include <torch/csrc/autograd/custom_function.h>
#include <torch/types.h>

#include <cstddef>
#include <vector>

#include "engine/cuda/cuda_context.h"
#include "engine/cuda/cuda_window_ops.h"

namespace mrnn::engine::cuda_glue {

// What every glue file's autograd Function names (each file says `using namespace cuda_glue`).
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

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

// How this window's products multiply: at bfloat16 under CUDA bf16 autocast, as autocast
// would multiply them, else float32. The backward multiplies as its forward did.
cuda::ProductPrecision productPrecisionNow();

// The flag the windows' autograd Functions take (their arguments are tensors and plain
// values): whether this call multiplies at bfloat16.
inline bool bfloat16Now() {
  return productPrecisionNow() == cuda::ProductPrecision::Bfloat16;
}

// The window operations on the tensors' device, with that device current for the call:
// the thread's cuBLAS handle and LibTorch's stream. The bfloat16 operands' copies are
// LibTorch tensors, so the caching allocator reuses them in the stream's order and the
// memory figures count them.
class DeviceCall {
 public:
  DeviceCall(const torch::Tensor& t, cuda::ProductPrecision precision)
      : scope(t.device().index()),
        ops(cuda::threadBlasHandle(t.device().index()), libtorchStream(), precision,
            [this, device = t.device()](size_t bytes) -> void* {
              held_.push_back(
                  torch::empty({static_cast<int64_t>(bytes)},
                               torch::TensorOptions().dtype(torch::kUInt8).device(device)));
              return held_.back().data_ptr();
            }) {}
  DeviceCall(const DeviceCall&) = delete;
  DeviceCall& operator=(const DeviceCall&) = delete;

  cuda::DeviceScope scope;
  cuda::CudaWindowOps ops;

 private:
  std::vector<torch::Tensor> held_;
};

}  // namespace mrnn::engine::cuda_glue
