// Maupome & Meurs's true cells' fused windows on CUDA tensors (cuda_fused_windows.h): LibTorch
// autograd Functions around engine/cuda's true mLSTM and true mGRU windows, as
// cuda_fused_windows.cpp is the mLSTM's.

#include <torch/torch.h>

#include <stdexcept>

#include "engine/models/cuda_fused_windows.h"

#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_tmgru_window.h"
#include "engine/cuda/cuda_tmlstm_window.h"
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

class CudaTmlstmWindowFunction : public torch::autograd::Function<CudaTmlstmWindowFunction> {
 public:
  // wMh: [4M, H] (the four W_mh,g stacked); v: [4, H, M].
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wMh, const torch::Tensor& v,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const cuda::TmlstmWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), v.size(2)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, N = 4 * sizes.M;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto c = torch::empty({T + 1, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto u = torch::empty({T, B, N}, options);
    auto m = torch::empty({T, B, N}, options);
    auto gates = torch::empty({T, B, 4 * H}, options);
    auto tanhC = torch::empty({T, B, H}, options);
    cuda::TmlstmWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.c0 = floats(c0);
    buffers.wMh = floats(wMh);
    buffers.v = floats(v);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.c = floats(c);
    buffers.hin = floats(hin);
    buffers.u = floats(u);
    buffers.m = floats(m);
    buffers.gates = floats(gates);
    buffers.tanhC = floats(tanhC);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::tmlstmWindowForward(sizes, buffers, call.ops);
    if (keep) ctx->save_for_backward({xp, wMh, v, mask, hin, u, m, gates, c, tanhC});
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& xp = saved[0];
    const auto& wMh = saved[1];
    const auto& v = saved[2];
    const int64_t T = xp.size(0), B = xp.size(1), H = v.size(1), M = v.size(2), N = 4 * M;
    const auto options = xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    auto dXp = torch::empty({T, B, N + 4 * H}, options);
    auto dU = torch::empty({T, B, N}, options);
    auto dM = torch::empty({B, N}, options);
    auto dWmh = torch::empty({N, H}, options);
    auto dV = torch::empty({4, H, M}, options);
    cuda::TmlstmWindowBackwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.wMh = floats(wMh);
    buffers.v = floats(v);
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
    buffers.dV = floats(dV);
    DeviceCall call(xp, cuda_glue::keptPrecision(ctx));
    cuda::tmlstmWindowBackward({T, B, H, M}, buffers, call.ops);
    return {dXp,
            dh,
            dc,
            dWmh,
            dV,
            torch::Tensor(),
            torch::Tensor(),
            torch::Tensor()};  // mask, keep, bfloat16
  }
};

class CudaTmgruWindowFunction : public torch::autograd::Function<CudaTmgruWindowFunction> {
 public:
  // wMhZr: [2M, H]; wMhH: [M, H]; v: [3, H, M].
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMhZr,
                               const torch::Tensor& wMhH, const torch::Tensor& v,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const cuda::TmgruWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), wMhH.size(0)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto uZr = torch::empty({T, B, 2 * M}, options);
    auto mZr = torch::empty({T, B, 2 * M}, options);
    auto gates = torch::empty({T, B, 3 * H}, options);
    auto rh = torch::empty({T, B, H}, options);
    auto uH = torch::empty({T, B, M}, options);
    auto mH = torch::empty({T, B, M}, options);
    cuda::TmgruWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wMhZr = floats(wMhZr);
    buffers.wMhH = floats(wMhH);
    buffers.v = floats(v);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.hin = floats(hin);
    buffers.uZr = floats(uZr);
    buffers.mZr = floats(mZr);
    buffers.gates = floats(gates);
    buffers.rh = floats(rh);
    buffers.uH = floats(uH);
    buffers.mH = floats(mH);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::tmgruWindowForward(sizes, buffers, call.ops);
    if (keep) {
      ctx->save_for_backward({xp, h0, wMhZr, wMhH, v, mask, hin, uZr, mZr, gates, rh, uH, mH, hs});
    }
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& xp = saved[0];
    const auto& wMhH = saved[3];
    const auto& v = saved[4];
    const int64_t T = xp.size(0), B = xp.size(1), H = v.size(1), M = wMhH.size(0);
    const auto options = xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, 3 * M + 3 * H}, options);
    auto dUZr = torch::empty({T, B, 2 * M}, options);
    auto dUH = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, 3 * M}, options);   // dm_z dm_r | dm_h
    auto work = torch::empty({2, B, H}, options);  // dhStep, d hin
    auto dWmhZr = torch::empty({2 * M, H}, options);
    auto dWmhH = torch::empty({M, H}, options);
    auto dV = torch::empty({3, H, M}, options);
    cuda::TmgruWindowBackwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(saved[1]);
    buffers.wMhZr = floats(saved[2]);
    buffers.wMhH = floats(wMhH);
    buffers.v = floats(v);
    buffers.mask = dataOrNull(saved[5]);
    buffers.hin = floats(saved[6]);
    buffers.uZr = floats(saved[7]);
    buffers.mZr = floats(saved[8]);
    buffers.gates = floats(saved[9]);
    buffers.rh = floats(saved[10]);
    buffers.uH = floats(saved[11]);
    buffers.mH = floats(saved[12]);
    buffers.hs = floats(saved[13]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dXp = floats(dXp);
    buffers.dUZr = floats(dUZr);
    buffers.dUH = floats(dUH);
    buffers.dMZr = floats(dM);
    buffers.dMH = buffers.dMZr + B * 2 * M;
    buffers.dhStep = floats(work);
    buffers.dHin = buffers.dhStep + B * H;
    buffers.dWmhZr = floats(dWmhZr);
    buffers.dWmhH = floats(dWmhH);
    buffers.dV = floats(dV);
    DeviceCall call(xp, cuda_glue::keptPrecision(ctx));
    cuda::tmgruWindowBackward({T, B, H, M}, buffers, call.ops);
    return {dXp,
            dh,
            dWmhZr,
            dWmhH,
            dV,
            torch::Tensor(),
            torch::Tensor(),
            torch::Tensor()};  // mask, keep, bfloat16
  }
};

}  // namespace

FusedWindowResult cudaFusedTmlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                        const torch::Tensor& c0, const torch::Tensor& wMh,
                                        const torch::Tensor& v, const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, c0, wMh, v});
  const auto out = CudaTmlstmWindowFunction::apply(
      windowInput(xp), windowInput(h0), windowInput(c0), windowInput(wMh), windowInput(v),
      windowInput(windowMask(mask, h0)), keep, cuda_glue::bfloat16Now());
  return {out[0], out[1], out[2]};
}

FusedWindowResult cudaFusedTmgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& wMhZr, const torch::Tensor& wMhH,
                                       const torch::Tensor& v, const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, wMhZr, wMhH, v});
  const auto out = CudaTmgruWindowFunction::apply(
      windowInput(xp), windowInput(h0), windowInput(wMhZr), windowInput(wMhH), windowInput(v),
      windowInput(windowMask(mask, h0)), keep, cuda_glue::bfloat16Now());
  return {out[0], out[1], {}};
}

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

FusedWindowResult cudaFusedTmlstmWindow(const torch::Tensor&, const torch::Tensor&,
                                        const torch::Tensor&, const torch::Tensor&,
                                        const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedTmlstmWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

FusedWindowResult cudaFusedTmgruWindow(const torch::Tensor&, const torch::Tensor&,
                                       const torch::Tensor&, const torch::Tensor&,
                                       const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedTmgruWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
