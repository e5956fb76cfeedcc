// The fused windows on CUDA tensors: every cell's window through one autograd Function
// (gpu_window_function.h) on the device, with the thread's cuBLAS handle and LibTorch's
// stream. Built only where nvcc built engine/cuda (no_cuda_windows.cpp elsewhere).

#include "engine/cuda/cuda_gru_window.h"
#include "engine/cuda/cuda_lstm_window.h"
#include "engine/cuda/cuda_mgru_window.h"
#include "engine/cuda/cuda_mlstm_window.h"
#include "engine/cuda/cuda_mrnn_window.h"
#include "engine/cuda/cuda_rnn_window.h"
#include "engine/cuda/cuda_tmgru_window.h"
#include "engine/cuda/cuda_tmlstm_window.h"
#include "engine/devices/autocast_scope.h"
#include "engine/models/cuda_fused_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/gpu_window_function.h"

namespace mrnn::engine {

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

template <typename Window>
FusedWindowResult cudaFusedWindow(const WindowTensors<Window>& inputs) {
  return runGpuWindow<Window, cuda_glue::DeviceCall>(inputs, cuda_glue::bfloat16Now());
}

#define MRNN_INSTANTIATE_WINDOW(W) \
  template FusedWindowResult cudaFusedWindow<W>(const WindowTensors<W>&);
MRNN_GPU_WINDOW_CELLS(MRNN_INSTANTIATE_WINDOW)
#undef MRNN_INSTANTIATE_WINDOW

}  // namespace mrnn::engine
