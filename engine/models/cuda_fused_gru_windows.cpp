// The GRU family's fused windows on CUDA tensors (cuda_fused_windows.h): LibTorch autograd
// Functions around engine/cuda's GRU and mGRU windows, as cuda_fused_windows.cpp is the LSTM
// family's.

#include <torch/torch.h>

#include <stdexcept>

#include "engine/models/cuda_fused_windows.h"

#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_gru_window.h"
#include "engine/cuda/cuda_mgru_window.h"
#include "engine/models/cuda_window_call.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using cuda_glue::DeviceCall;
using cuda_glue::floats;
using cuda_glue::windowInput;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class CudaGruWindowFunction : public torch::autograd::Function<CudaGruWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wZr,
                               const torch::Tensor& wH, const torch::Tensor& mask, bool keep,
                               bool bfloat16) {
    const cuda::GruWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto gates = torch::empty({T, B, 3 * H}, options);
    auto rh = torch::empty({T, B, H}, options);
    cuda::GruWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wZr = floats(wZr);
    buffers.wH = floats(wH);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.hin = floats(hin);
    buffers.gates = floats(gates);
    buffers.rh = floats(rh);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::gruWindowForward(sizes, buffers, call.ops);
    if (keep) ctx->save_for_backward({h0, wZr, wH, mask, hin, gates, rh, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& hin = saved[4];
    const int64_t T = hin.size(0), B = hin.size(1), H = hin.size(2);
    const auto options = hin.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, 3 * H}, options);
    auto work = torch::empty({3, B, H}, options);  // dhStep, d(r hin), d hin
    auto dWzr = torch::empty({2 * H, H}, options);
    auto dWh = torch::empty({H, H}, options);
    cuda::GruWindowBackwardBuffers buffers;
    buffers.h0 = floats(saved[0]);
    buffers.wZr = floats(saved[1]);
    buffers.wH = floats(saved[2]);
    buffers.mask = dataOrNull(saved[3]);
    buffers.hin = floats(hin);
    buffers.gates = floats(saved[5]);
    buffers.rh = floats(saved[6]);
    buffers.hs = floats(saved[7]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dXp = floats(dXp);
    buffers.dhStep = floats(work);
    buffers.dRh = buffers.dhStep + B * H;
    buffers.dHin = buffers.dRh + B * H;
    buffers.dWzr = floats(dWzr);
    buffers.dWh = floats(dWh);
    DeviceCall call(hin, cuda_glue::keptPrecision(ctx));
    cuda::gruWindowBackward({T, B, H}, buffers, call.ops);
    return {dXp,
            dh,
            dWzr,
            dWh,
            torch::Tensor(),
            torch::Tensor(),
            torch::Tensor()};  // mask, keep, bfloat16
  }
};

class CudaMgruWindowFunction : public torch::autograd::Function<CudaMgruWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMh,
                               const torch::Tensor& vZr, const torch::Tensor& vH,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const cuda::MgruWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), wMh.size(0)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto u = torch::empty({T, B, M}, options);
    auto m = torch::empty({T, B, M}, options);
    auto gates = torch::empty({T, B, 2 * H + M}, options);
    auto rm = torch::empty({T, B, M}, options);
    cuda::MgruWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wMh = floats(wMh);
    buffers.vZr = floats(vZr);
    buffers.vH = floats(vH);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.hin = floats(hin);
    buffers.u = floats(u);
    buffers.m = floats(m);
    buffers.gates = floats(gates);
    buffers.rm = floats(rm);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::mgruWindowForward(sizes, buffers, call.ops);
    if (keep) ctx->save_for_backward({xp, h0, wMh, vZr, vH, mask, hin, u, m, gates, rm, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& xp = saved[0];
    const auto& wMh = saved[2];
    const int64_t T = xp.size(0), B = xp.size(1), H = saved[6].size(2), M = wMh.size(0);
    const auto options = xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, M + 2 * H + M}, options);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto work = torch::empty({2, B, H}, options);  // dhStep, d hin
    auto dWmh = torch::empty({M, H}, options);
    auto dVzr = torch::empty({H + M, M}, options);
    auto dVh = torch::empty({H, M}, options);
    cuda::MgruWindowBackwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(saved[1]);
    buffers.wMh = floats(wMh);
    buffers.vZr = floats(saved[3]);
    buffers.vH = floats(saved[4]);
    buffers.mask = dataOrNull(saved[5]);
    buffers.hin = floats(saved[6]);
    buffers.u = floats(saved[7]);
    buffers.m = floats(saved[8]);
    buffers.gates = floats(saved[9]);
    buffers.rm = floats(saved[10]);
    buffers.hs = floats(saved[11]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dXp = floats(dXp);
    buffers.dU = floats(dU);
    buffers.dM = floats(dM);
    buffers.dhStep = floats(work);
    buffers.dHin = buffers.dhStep + B * H;
    buffers.dWmh = floats(dWmh);
    buffers.dVzr = floats(dVzr);
    buffers.dVh = floats(dVh);
    DeviceCall call(xp, cuda_glue::keptPrecision(ctx));
    cuda::mgruWindowBackward({T, B, H, M}, buffers, call.ops);
    return {dXp,
            dh,
            dWmh,
            dVzr,
            dVh,
            torch::Tensor(),
            torch::Tensor(),
            torch::Tensor()};  // mask, keep, bfloat16
  }
};

}  // namespace

FusedWindowResult cudaFusedGruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                     const torch::Tensor& wZr, const torch::Tensor& wH,
                                     const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, wZr, wH});
  const auto out = CudaGruWindowFunction::apply(windowInput(xp), windowInput(h0), windowInput(wZr),
                                                windowInput(wH), windowInput(windowMask(mask, h0)),
                                                keep, cuda_glue::bfloat16Now());
  return {out[0], out[1], {}};
}

FusedWindowResult cudaFusedMgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& wMh, const torch::Tensor& vZr,
                                      const torch::Tensor& vH, const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, wMh, vZr, vH});
  const auto out = CudaMgruWindowFunction::apply(
      windowInput(xp), windowInput(h0), windowInput(wMh), windowInput(vZr), windowInput(vH),
      windowInput(windowMask(mask, h0)), keep, cuda_glue::bfloat16Now());
  return {out[0], out[1], {}};
}

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

FusedWindowResult cudaFusedGruWindow(const torch::Tensor&, const torch::Tensor&,
                                     const torch::Tensor&, const torch::Tensor&,
                                     const torch::Tensor&) {
  throw std::logic_error("cudaFusedGruWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

FusedWindowResult cudaFusedMgruWindow(const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedMgruWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
