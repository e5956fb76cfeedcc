#include "engine/models/cuda_fused_windows.h"

#include <torch/torch.h>

#include <stdexcept>

#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_lstm_window.h"
#include "engine/cuda/cuda_mlstm_window.h"
#include "engine/devices/autocast_scope.h"
#include "engine/models/cuda_window_call.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

using cuda_glue::DeviceCall;
using cuda_glue::floats;
using cuda_glue::windowInput;

class CudaMlstmWindowFunction : public torch::autograd::Function<CudaMlstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wMh, const torch::Tensor& wM,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const cuda::MlstmWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), wMh.size(0)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto c = torch::empty({T + 1, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto u = torch::empty({T, B, M}, options);
    auto m = torch::empty({T, B, M}, options);
    auto gates = torch::empty({T, B, 4 * H}, options);
    auto tanhC = torch::empty({T, B, H}, options);
    cuda::MlstmWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.c0 = floats(c0);
    buffers.wMh = floats(wMh);
    buffers.wM = floats(wM);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.c = floats(c);
    buffers.hin = floats(hin);
    buffers.u = floats(u);
    buffers.m = floats(m);
    buffers.gates = floats(gates);
    buffers.tanhC = floats(tanhC);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::mlstmWindowForward(sizes, buffers, call.ops);
    if (keep) ctx->save_for_backward({xp, wMh, wM, mask, hin, u, m, gates, c, tanhC});
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& xp = saved[0];
    const auto& wMh = saved[1];
    const auto& wM = saved[2];
    const int64_t T = xp.size(0), B = xp.size(1), H = saved[4].size(2), M = wMh.size(0);
    const auto options = xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    auto dXp = torch::empty({T, B, M + 4 * H}, options);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto dWmh = torch::empty({M, H}, options);
    auto dWm = torch::empty({4 * H, M}, options);
    cuda::MlstmWindowBackwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.wMh = floats(wMh);
    buffers.wM = floats(wM);
    buffers.mask = dataOrNull(saved[3]);
    buffers.hin = floats(saved[4]);
    buffers.u = floats(saved[5]);
    buffers.m = floats(saved[6]);
    buffers.gates = floats(saved[7]);
    buffers.c = floats(saved[8]);
    buffers.tanhC = floats(saved[9]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dc = floats(dc);
    buffers.dXp = floats(dXp);
    buffers.dU = floats(dU);
    buffers.dM = floats(dM);
    buffers.dWmh = floats(dWmh);
    buffers.dWm = floats(dWm);
    DeviceCall call(xp, cuda_glue::keptPrecision(ctx));
    cuda::mlstmWindowBackward({T, B, H, M}, buffers, call.ops);
    return {dXp,
            dh,
            dc,
            dWmh,
            dWm,
            torch::Tensor(),
            torch::Tensor(),
            torch::Tensor()};  // mask, keep, bfloat16
  }
};

class CudaLstmWindowFunction : public torch::autograd::Function<CudaLstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wH, const torch::Tensor& mask, bool keep,
                               bool bfloat16) {
    const cuda::LstmWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto c = torch::empty({T + 1, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto gates = torch::empty({T, B, 4 * H}, options);
    auto tanhC = torch::empty({T, B, H}, options);
    cuda::LstmWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.c0 = floats(c0);
    buffers.wH = floats(wH);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.c = floats(c);
    buffers.hin = floats(hin);
    buffers.gates = floats(gates);
    buffers.tanhC = floats(tanhC);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::lstmWindowForward(sizes, buffers, call.ops);
    if (keep) ctx->save_for_backward({wH, mask, hin, gates, c, tanhC});
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& wH = saved[0];
    const auto& hin = saved[2];
    const int64_t T = hin.size(0), B = hin.size(1), H = hin.size(2);
    const auto options = hin.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    auto dXp = torch::empty({T, B, 4 * H}, options);
    auto dWh = torch::empty({4 * H, H}, options);
    cuda::LstmWindowBackwardBuffers buffers;
    buffers.wH = floats(wH);
    buffers.mask = dataOrNull(saved[1]);
    buffers.hin = floats(hin);
    buffers.gates = floats(saved[3]);
    buffers.c = floats(saved[4]);
    buffers.tanhC = floats(saved[5]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dc = floats(dc);
    buffers.dXp = floats(dXp);
    buffers.dWh = floats(dWh);
    DeviceCall call(hin, cuda_glue::keptPrecision(ctx));
    cuda::lstmWindowBackward({T, B, H}, buffers, call.ops);
    return {dXp,
            dh,
            dc,
            dWh,
            torch::Tensor(),
            torch::Tensor(),
            torch::Tensor()};  // mask, keep, bfloat16
  }
};

}  // namespace

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

FusedWindowResult cudaFusedMlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& c0, const torch::Tensor& wMh,
                                       const torch::Tensor& wM, const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, c0, wMh, wM});
  const auto out = CudaMlstmWindowFunction::apply(
      windowInput(xp), windowInput(h0), windowInput(c0), windowInput(wMh), windowInput(wM),
      windowInput(windowMask(mask, h0)), keep, cuda_glue::bfloat16Now());
  return {out[0], out[1], out[2]};
}

FusedWindowResult cudaFusedLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& c0, const torch::Tensor& wH,
                                      const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, c0, wH});
  const auto out = CudaLstmWindowFunction::apply(windowInput(xp), windowInput(h0), windowInput(c0),
                                                 windowInput(wH), windowInput(windowMask(mask, h0)),
                                                 keep, cuda_glue::bfloat16Now());
  return {out[0], out[1], out[2]};
}

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor>) {
  return false;
}

FusedWindowResult cudaFusedMlstmWindow(const torch::Tensor&, const torch::Tensor&,
                                       const torch::Tensor&, const torch::Tensor&,
                                       const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedMlstmWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

FusedWindowResult cudaFusedLstmWindow(const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&) {
  throw std::logic_error("cudaFusedLstmWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
