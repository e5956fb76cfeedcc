// The true mLSTM's fused window on CUDA tensors (Maupome & Meurs, one intermediate state per
// gate): a LibTorch autograd Function around engine/cuda's true mLSTM window.

#include "engine/models/cuda_fused_tmlstm_window.h"

#include <torch/torch.h>

#include <stdexcept>

#include "engine/devices/cuda_kernels_built.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_tmlstm_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/window_saving.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using namespace cuda_glue;  // floats, DeviceCall, AutogradContext, ...

using TmlstmSaved = TmlstmWindowSaved<torch::Tensor>;

class CudaTmlstmWindowFunction : public torch::autograd::Function<CudaTmlstmWindowFunction> {
 public:
  // wMh: [4M, H] (the four W_mh,g stacked); v: [4, H, M].
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wMh, const torch::Tensor& v,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const TmlstmWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), v.size(2)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = xp.options();
    const auto shape = tmlstmWindowShapes(sizes);
    auto hs = torch::empty({T, B, H}, options);
    TmlstmSaved saved{xp,
                      wMh,
                      v,
                      mask,
                      torch::empty(shape.hin, options),
                      torch::empty(shape.u, options),
                      torch::empty(shape.m, options),
                      torch::empty(shape.gates, options),
                      torch::empty(shape.c, options),
                      torch::empty(shape.tanhC, options)};
    cuda::TmlstmWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.c0 = floats(c0);
    buffers.wMh = floats(wMh);
    buffers.v = floats(v);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.c = floats(saved.c);
    buffers.hin = floats(saved.hin);
    buffers.u = floats(saved.u);
    buffers.m = floats(saved.m);
    buffers.gates = floats(saved.gates);
    buffers.tanhC = floats(saved.tanhC);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::tmlstmWindowForward(sizes, buffers, call.ops);
    if (keep) saveWindow(ctx, saved);
    return {hs, hs.select(0, T - 1).clone(), saved.c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<TmlstmSaved>(ctx);
    const TmlstmWindowSizes sizes{saved.xp.size(0), saved.xp.size(1), saved.v.size(1),
                                  saved.v.size(2)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M, N = sizes.N();
    const auto options = saved.xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    auto dXp = torch::empty({T, B, sizes.X()}, options);
    auto dU = torch::empty({T, B, N}, options);
    auto dM = torch::empty({B, N}, options);
    auto dWmh = torch::empty({N, H}, options);
    auto dV = torch::empty({4, H, M}, options);
    cuda::TmlstmWindowBackwardBuffers buffers;
    buffers.saved = savedData(saved);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dc = floats(dc);
    buffers.dXp = floats(dXp);
    buffers.dU = floats(dU);
    buffers.dM = floats(dM);
    buffers.dWmh = floats(dWmh);
    buffers.dV = floats(dV);
    DeviceCall call(saved.xp, cuda_glue::keptPrecision(ctx));
    cuda::tmlstmWindowBackward(sizes, buffers, call.ops);
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

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

FusedWindowResult cudaFusedTmlstmWindow(const torch::Tensor&, const torch::Tensor&,
                                        const torch::Tensor&, const torch::Tensor&,
                                        const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedTmlstmWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
