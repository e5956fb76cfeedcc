// The true mGRU's fused window on CUDA tensors (Maupome & Meurs, one intermediate state per
// gate): a LibTorch autograd Function around engine/cuda's true mGRU window.

#include "engine/models/cuda_fused_tmgru_window.h"

#include <torch/torch.h>

#include <stdexcept>

#include "engine/devices/cuda_kernels_built.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_tmgru_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/window_saving.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using namespace cuda_glue;  // floats, DeviceCall, AutogradContext, ...

using TmgruSaved = TmgruWindowSaved<torch::Tensor>;

class CudaTmgruWindowFunction : public torch::autograd::Function<CudaTmgruWindowFunction> {
 public:
  // wMhZr: [2M, H]; wMhH: [M, H]; v: [3, H, M].
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMhZr,
                               const torch::Tensor& wMhH, const torch::Tensor& v,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const TmgruWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), wMhH.size(0)};
    const int64_t T = sizes.T;
    const auto options = xp.options();
    const auto shape = tmgruWindowShapes(sizes);
    TmgruSaved saved{xp,
                     h0,
                     wMhZr,
                     wMhH,
                     v,
                     mask,
                     torch::empty(shape.hin, options),
                     torch::empty(shape.uZr, options),
                     torch::empty(shape.mZr, options),
                     torch::empty(shape.gates, options),
                     torch::empty(shape.rh, options),
                     torch::empty(shape.uH, options),
                     torch::empty(shape.mH, options),
                     torch::empty(shape.hs, options)};
    cuda::TmgruWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wMhZr = floats(wMhZr);
    buffers.wMhH = floats(wMhH);
    buffers.v = floats(v);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(saved.hs);
    buffers.hin = floats(saved.hin);
    buffers.uZr = floats(saved.uZr);
    buffers.mZr = floats(saved.mZr);
    buffers.gates = floats(saved.gates);
    buffers.rh = floats(saved.rh);
    buffers.uH = floats(saved.uH);
    buffers.mH = floats(saved.mH);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::tmgruWindowForward(sizes, buffers, call.ops);
    if (keep) saveWindow(ctx, saved);
    return {saved.hs, saved.hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<TmgruSaved>(ctx);
    const TmgruWindowSizes sizes{saved.xp.size(0), saved.xp.size(1), saved.v.size(1),
                                 saved.wMhH.size(0)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
    const auto options = saved.xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, sizes.X()}, options);
    auto dUZr = torch::empty({T, B, 2 * M}, options);
    auto dUH = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, 3 * M}, options);   // dm_z dm_r | dm_h
    auto work = torch::empty({2, B, H}, options);  // dhStep, d hin
    auto dWmhZr = torch::empty({2 * M, H}, options);
    auto dWmhH = torch::empty({M, H}, options);
    auto dV = torch::empty({3, H, M}, options);
    cuda::TmgruWindowBackwardBuffers buffers;
    buffers.saved = savedData(saved);
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
    DeviceCall call(saved.xp, cuda_glue::keptPrecision(ctx));
    cuda::tmgruWindowBackward(sizes, buffers, call.ops);
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

FusedWindowResult cudaFusedTmgruWindow(const torch::Tensor&, const torch::Tensor&,
                                       const torch::Tensor&, const torch::Tensor&,
                                       const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedTmgruWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
