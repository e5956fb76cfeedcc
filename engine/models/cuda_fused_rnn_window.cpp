// The plain RNN's fused window on CUDA tensors: a LibTorch autograd Function around
// engine/cuda's plain RNN window.

#include "engine/models/cuda_fused_rnn_window.h"

#include <torch/torch.h>

#include <stdexcept>

#include "engine/devices/cuda_kernels_built.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_rnn_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/window_saving.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using namespace cuda_glue;  // floats, DeviceCall, AutogradContext, ...

using RnnSaved = RnnWindowSaved<torch::Tensor>;

class CudaRnnWindowFunction : public torch::autograd::Function<CudaRnnWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wHh,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const RnnWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1)};
    const int64_t T = sizes.T;
    const auto options = xp.options();
    const auto shape = rnnWindowShapes(sizes);
    RnnSaved saved{wHh, mask, torch::empty(shape.hin, options), torch::empty(shape.hs, options)};
    cuda::RnnWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wHh = floats(wHh);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(saved.hs);
    buffers.hin = floats(saved.hin);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::rnnWindowForward(sizes, buffers, call.ops);
    if (keep) saveWindow(ctx, saved);
    return {saved.hs, saved.hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<RnnSaved>(ctx);
    const RnnWindowSizes sizes{saved.hin.size(0), saved.hin.size(1), saved.hin.size(2)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = saved.hin.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, H}, options);
    auto dWhh = torch::empty({H, H}, options);
    cuda::RnnWindowBackwardBuffers buffers;
    buffers.saved = savedData(saved);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dXp = floats(dXp);
    buffers.dWhh = floats(dWhh);
    DeviceCall call(saved.hin, cuda_glue::keptPrecision(ctx));
    cuda::rnnWindowBackward(sizes, buffers, call.ops);
    return {dXp, dh, dWhh, torch::Tensor(), torch::Tensor(), torch::Tensor()};  // mask, keep, bf16
  }
};

}  // namespace

FusedWindowResult cudaFusedRnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                     const torch::Tensor& wHh, const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, wHh});
  const auto out = CudaRnnWindowFunction::apply(windowInput(xp), windowInput(h0), windowInput(wHh),
                                                windowInput(windowMask(mask, h0)), keep,
                                                cuda_glue::bfloat16Now());
  return {out[0], out[1], {}};
}

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

FusedWindowResult cudaFusedRnnWindow(const torch::Tensor&, const torch::Tensor&,
                                     const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedRnnWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
