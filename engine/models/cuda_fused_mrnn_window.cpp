// Sutskever's multiplicative RNN's fused window on CUDA tensors: a LibTorch autograd Function
// around engine/cuda's mRNN window.

#include "engine/models/cuda_fused_mrnn_window.h"

#include <torch/torch.h>

#include <stdexcept>

#include "engine/devices/cuda_kernels_built.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_mrnn_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/window_saving.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using namespace cuda_glue;  // floats, DeviceCall, AutogradContext, ...

using MrnnSaved = MrnnWindowSaved<torch::Tensor>;

class CudaMrnnWindowFunction : public torch::autograd::Function<CudaMrnnWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMh,
                               const torch::Tensor& wHm, const torch::Tensor& mask, bool keep,
                               bool bfloat16) {
    const MrnnWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), wMh.size(0)};
    const int64_t T = sizes.T;
    const auto options = xp.options();
    const auto shape = mrnnWindowShapes(sizes);
    MrnnSaved saved{xp,
                    wMh,
                    wHm,
                    mask,
                    torch::empty(shape.hin, options),
                    torch::empty(shape.u, options),
                    torch::empty(shape.m, options),
                    torch::empty(shape.hs, options)};
    cuda::MrnnWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wMh = floats(wMh);
    buffers.wHm = floats(wHm);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(saved.hs);
    buffers.hin = floats(saved.hin);
    buffers.u = floats(saved.u);
    buffers.m = floats(saved.m);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::mrnnWindowForward(sizes, buffers, call.ops);
    if (keep) saveWindow(ctx, saved);
    return {saved.hs, saved.hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<MrnnSaved>(ctx);
    const MrnnWindowSizes sizes{saved.xp.size(0), saved.xp.size(1), saved.hin.size(2),
                                saved.wMh.size(0)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
    const auto options = saved.xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, sizes.X()}, options);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto dWmh = torch::empty({M, H}, options);
    auto dWhm = torch::empty({H, M}, options);
    cuda::MrnnWindowBackwardBuffers buffers;
    buffers.saved = savedData(saved);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dXp = floats(dXp);
    buffers.dU = floats(dU);
    buffers.dM = floats(dM);
    buffers.dWmh = floats(dWmh);
    buffers.dWhm = floats(dWhm);
    DeviceCall call(saved.xp, cuda_glue::keptPrecision(ctx));
    cuda::mrnnWindowBackward(sizes, buffers, call.ops);
    return {dXp,
            dh,
            dWmh,
            dWhm,
            torch::Tensor(),
            torch::Tensor(),
            torch::Tensor()};  // mask, keep, bfloat16
  }
};

}  // namespace

FusedWindowResult cudaFusedMrnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& wMh, const torch::Tensor& wHm,
                                      const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, wMh, wHm});
  const auto out = CudaMrnnWindowFunction::apply(
      windowInput(xp), windowInput(h0), windowInput(wMh), windowInput(wHm),
      windowInput(windowMask(mask, h0)), keep, cuda_glue::bfloat16Now());
  return {out[0], out[1], {}};
}

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

FusedWindowResult cudaFusedMrnnWindow(const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&) {
  throw std::logic_error("cudaFusedMrnnWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
