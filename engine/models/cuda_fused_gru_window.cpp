// The GRU's fused window on CUDA tensors: a LibTorch autograd Function around engine/cuda's GRU
// window.

#include "engine/models/cuda_fused_gru_window.h"

#include <torch/torch.h>

#include <stdexcept>

#include "engine/devices/cuda_kernels_built.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_gru_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/window_saving.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using namespace cuda_glue;  // floats, DeviceCall, AutogradContext, ...

using GruSaved = GruWindowSaved<torch::Tensor>;

class CudaGruWindowFunction : public torch::autograd::Function<CudaGruWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wZr,
                               const torch::Tensor& wH, const torch::Tensor& mask, bool keep,
                               bool bfloat16) {
    const GruWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1)};
    const int64_t T = sizes.T;
    const auto options = xp.options();
    const auto shape = gruWindowShapes(sizes);
    GruSaved saved{h0,
                   wZr,
                   wH,
                   mask,
                   torch::empty(shape.hin, options),
                   torch::empty(shape.gates, options),
                   torch::empty(shape.rh, options),
                   torch::empty(shape.hs, options)};
    cuda::GruWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wZr = floats(wZr);
    buffers.wH = floats(wH);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(saved.hs);
    buffers.hin = floats(saved.hin);
    buffers.gates = floats(saved.gates);
    buffers.rh = floats(saved.rh);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::gruWindowForward(sizes, buffers, call.ops);
    if (keep) saveWindow(ctx, saved);
    return {saved.hs, saved.hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<GruSaved>(ctx);
    const GruWindowSizes sizes{saved.hin.size(0), saved.hin.size(1), saved.hin.size(2)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = saved.hin.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, 3 * H}, options);
    auto work = torch::empty({3, B, H}, options);  // dhStep, d(r hin), d hin
    auto dWzr = torch::empty({2 * H, H}, options);
    auto dWh = torch::empty({H, H}, options);
    cuda::GruWindowBackwardBuffers buffers;
    buffers.saved = savedData(saved);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dXp = floats(dXp);
    buffers.dhStep = floats(work);
    buffers.dRh = buffers.dhStep + B * H;
    buffers.dHin = buffers.dRh + B * H;
    buffers.dWzr = floats(dWzr);
    buffers.dWh = floats(dWh);
    DeviceCall call(saved.hin, cuda_glue::keptPrecision(ctx));
    cuda::gruWindowBackward(sizes, buffers, call.ops);
    return {dXp,
            dh,
            dWzr,
            dWh,
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

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

FusedWindowResult cudaFusedGruWindow(const torch::Tensor&, const torch::Tensor&,
                                     const torch::Tensor&, const torch::Tensor&,
                                     const torch::Tensor&) {
  throw std::logic_error("cudaFusedGruWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
