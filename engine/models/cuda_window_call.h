#pragma once

// Internal to the CUDA fused windows' glue (the cuda_fused_*.cpp files), compiled only where
// MRNN_HAVE_CUDA_KERNELS is defined: what hands a LibTorch CUDA tensor's data to engine/cuda.

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

// A window's input as the kernels read it: float32 (under bf16 autocast the projections
// arrive as bfloat16; autograd casts their gradients back) and contiguous.
inline torch::Tensor windowInput(const torch::Tensor& t) {
  return t.to(torch::kFloat).contiguous();
}

// LibTorch's current stream on a device is its default (legacy) stream unless a caller
// chose another; this engine never does, so the kernels run in order with LibTorch's work.
inline cuda::Stream libtorchStream() {
  return nullptr;
}

// How this window's products multiply: at bfloat16 under CUDA bf16 autocast, as autocast
// would multiply them, else float32. The backward multiplies as its forward did.
cuda::ProductPrecision productPrecisionNow();

inline bool isBfloat16(cuda::ProductPrecision precision) {
  return precision == cuda::ProductPrecision::Bfloat16;
}
inline cuda::ProductPrecision precisionOf(bool bfloat16) {
  return bfloat16 ? cuda::ProductPrecision::Bfloat16 : cuda::ProductPrecision::Float32;
}

// The flag the windows' autograd Functions take (their arguments are tensors and plain
// values): whether this call multiplies at bfloat16.
inline bool bfloat16Now() {
  return isBfloat16(productPrecisionNow());
}

// One home for the context key: the forward records its precision and multiplies at it,
// the backward reads it back and multiplies alike.
inline cuda::ProductPrecision keepPrecision(torch::autograd::AutogradContext* ctx, bool bfloat16) {
  ctx->saved_data["bfloat16"] = bfloat16;
  return precisionOf(bfloat16);
}
inline cuda::ProductPrecision keptPrecision(torch::autograd::AutogradContext* ctx) {
  return precisionOf(ctx->saved_data["bfloat16"].toBool());
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
