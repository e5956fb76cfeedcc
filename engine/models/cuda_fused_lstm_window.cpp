// The LSTM's fused window on CUDA tensors (the Major-Minor LSTM's halves too): a LibTorch
// autograd Function around engine/cuda's LSTM window.

#include "engine/models/cuda_fused_lstm_window.h"

#include <torch/torch.h>

#include <stdexcept>

#include "engine/devices/cuda_kernels_built.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_lstm_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/window_saving.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using namespace cuda_glue;  // floats, DeviceCall, AutogradContext, ...

using LstmSaved = LstmWindowSaved<torch::Tensor>;

class CudaLstmWindowFunction : public torch::autograd::Function<CudaLstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wH, const torch::Tensor& mask, bool keep,
                               bool bfloat16) {
    const LstmWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = xp.options();
    const auto shape = lstmWindowShapes(sizes);
    auto hs = torch::empty({T, B, H}, options);
    LstmSaved saved{wH,
                    mask,
                    torch::empty(shape.hin, options),
                    torch::empty(shape.gates, options),
                    torch::empty(shape.c, options),
                    torch::empty(shape.tanhC, options)};
    cuda::LstmWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.c0 = floats(c0);
    buffers.wH = floats(wH);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.c = floats(saved.c);
    buffers.hin = floats(saved.hin);
    buffers.gates = floats(saved.gates);
    buffers.tanhC = floats(saved.tanhC);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::lstmWindowForward(sizes, buffers, call.ops);
    if (keep) saveWindow(ctx, saved);
    return {hs, hs.select(0, T - 1).clone(), saved.c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<LstmSaved>(ctx);
    const LstmWindowSizes sizes{saved.hin.size(0), saved.hin.size(1), saved.hin.size(2)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = saved.hin.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    auto dXp = torch::empty({T, B, 4 * H}, options);
    auto dWh = torch::empty({4 * H, H}, options);
    cuda::LstmWindowBackwardBuffers buffers;
    buffers.saved = savedData(saved);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dc = floats(dc);
    buffers.dXp = floats(dXp);
    buffers.dWh = floats(dWh);
    DeviceCall call(saved.hin, cuda_glue::keptPrecision(ctx));
    cuda::lstmWindowBackward(sizes, buffers, call.ops);
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

FusedWindowResult cudaFusedLstmWindow(const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&) {
  throw std::logic_error("cudaFusedLstmWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
