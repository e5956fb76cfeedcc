// The mGRU's fused window on CUDA tensors: a LibTorch autograd Function around engine/cuda's
// mGRU window.

#include "engine/models/cuda_fused_mgru_window.h"

#include <torch/torch.h>

#include <stdexcept>

#include "engine/devices/cuda_kernels_built.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_mgru_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/window_saving.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using namespace cuda_glue;  // floats, DeviceCall, AutogradContext, ...

using MgruSaved = MgruWindowSaved<torch::Tensor>;

class CudaMgruWindowFunction : public torch::autograd::Function<CudaMgruWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMh,
                               const torch::Tensor& vZr, const torch::Tensor& vH,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const MgruWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), wMh.size(0)};
    const int64_t T = sizes.T;
    const auto options = xp.options();
    const auto shape = mgruWindowShapes(sizes);
    MgruSaved saved{xp,
                    h0,
                    wMh,
                    vZr,
                    vH,
                    mask,
                    torch::empty(shape.hin, options),
                    torch::empty(shape.u, options),
                    torch::empty(shape.m, options),
                    torch::empty(shape.gates, options),
                    torch::empty(shape.rm, options),
                    torch::empty(shape.hs, options)};
    cuda::MgruWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wMh = floats(wMh);
    buffers.vZr = floats(vZr);
    buffers.vH = floats(vH);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(saved.hs);
    buffers.hin = floats(saved.hin);
    buffers.u = floats(saved.u);
    buffers.m = floats(saved.m);
    buffers.gates = floats(saved.gates);
    buffers.rm = floats(saved.rm);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::mgruWindowForward(sizes, buffers, call.ops);
    if (keep) saveWindow(ctx, saved);
    return {saved.hs, saved.hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<MgruSaved>(ctx);
    const MgruWindowSizes sizes{saved.xp.size(0), saved.xp.size(1), saved.hin.size(2),
                                saved.wMh.size(0)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
    const auto options = saved.xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, sizes.X()}, options);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto work = torch::empty({2, B, H}, options);  // dhStep, d hin
    auto dWmh = torch::empty({M, H}, options);
    auto dVzr = torch::empty({H + M, M}, options);
    auto dVh = torch::empty({H, M}, options);
    cuda::MgruWindowBackwardBuffers buffers;
    buffers.saved = savedData(saved);
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
    DeviceCall call(saved.xp, cuda_glue::keptPrecision(ctx));
    cuda::mgruWindowBackward(sizes, buffers, call.ops);
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

FusedWindowResult cudaFusedMgruWindow(const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedMgruWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
