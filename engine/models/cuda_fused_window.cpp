#include "engine/models/cuda_fused_window.h"

#include "engine/devices/cuda_kernels_built.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/devices/autocast_scope.h"
#include "engine/models/cuda_window_call.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS

cuda::ProductPrecision cuda_glue::productPrecisionNow() {
  return AutocastScope::bfloat16OnCuda() ? cuda::ProductPrecision::Bfloat16
                                         : cuda::ProductPrecision::Float32;
}

bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor> tensors) {
  if (tensors.size() == 0) return false;
  const auto device = tensors.begin()->device();
  // Under bf16 autocast the projections come as bfloat16; the window takes them as float32
  // and multiplies at bfloat16 itself.
  const bool bfloat16 = AutocastScope::bfloat16OnCuda();
  for (const auto& t : tensors) {
    if (!t.defined() || !t.is_cuda() || t.device() != device) return false;
    const auto type = t.scalar_type();
    if (type != torch::kFloat32 && !(bfloat16 && type == torch::kBFloat16)) return false;
  }
  return tensors.begin()->size(0) > 0;
}

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor>) {
  return false;
}

#endif

}  // namespace mrnn::engine
