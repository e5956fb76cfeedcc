// The tanh cells' fused windows on CUDA tensors (cuda_fused_windows.h): LibTorch autograd
// Functions around engine/cuda's plain RNN and multiplicative RNN windows.

#include <torch/torch.h>

#include <stdexcept>

#include "engine/models/cuda_fused_windows.h"

#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_mrnn_window.h"
#include "engine/cuda/cuda_rnn_window.h"
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

class CudaRnnWindowFunction : public torch::autograd::Function<CudaRnnWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wHh,
                               const torch::Tensor& mask, bool keep, bool bfloat16) {
    const cuda::RnnWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    cuda::RnnWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wHh = floats(wHh);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.hin = floats(hin);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::rnnWindowForward(sizes, buffers, call.ops);
    if (keep) ctx->save_for_backward({wHh, mask, hin, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& hin = saved[2];
    const int64_t T = hin.size(0), B = hin.size(1), H = hin.size(2);
    const auto options = hin.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, H}, options);
    auto dWhh = torch::empty({H, H}, options);
    cuda::RnnWindowBackwardBuffers buffers;
    buffers.wHh = floats(saved[0]);
    buffers.mask = dataOrNull(saved[1]);
    buffers.hin = floats(hin);
    buffers.hs = floats(saved[3]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dXp = floats(dXp);
    buffers.dWhh = floats(dWhh);
    DeviceCall call(hin, cuda_glue::keptPrecision(ctx));
    cuda::rnnWindowBackward({T, B, H}, buffers, call.ops);
    return {dXp, dh, dWhh, torch::Tensor(), torch::Tensor(), torch::Tensor()};  // mask, keep, bf16
  }
};

class CudaMrnnWindowFunction : public torch::autograd::Function<CudaMrnnWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMh,
                               const torch::Tensor& wHm, const torch::Tensor& mask, bool keep,
                               bool bfloat16) {
    const cuda::MrnnWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), wMh.size(0)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto u = torch::empty({T, B, M}, options);
    auto m = torch::empty({T, B, M}, options);
    cuda::MrnnWindowForwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.h0 = floats(h0);
    buffers.wMh = floats(wMh);
    buffers.wHm = floats(wHm);
    buffers.mask = dataOrNull(mask);
    buffers.hs = floats(hs);
    buffers.hin = floats(hin);
    buffers.u = floats(u);
    buffers.m = floats(m);
    DeviceCall call(xp, cuda_glue::keepPrecision(ctx, bfloat16));
    cuda::mrnnWindowForward(sizes, buffers, call.ops);
    if (keep) ctx->save_for_backward({xp, wMh, wHm, mask, hin, u, m, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& xp = saved[0];
    const auto& wMh = saved[1];
    const int64_t T = xp.size(0), B = xp.size(1), H = saved[4].size(2), M = wMh.size(0);
    const auto options = xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, M + H}, options);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto dWmh = torch::empty({M, H}, options);
    auto dWhm = torch::empty({H, M}, options);
    cuda::MrnnWindowBackwardBuffers buffers;
    buffers.xp = floats(xp);
    buffers.wMh = floats(wMh);
    buffers.wHm = floats(saved[2]);
    buffers.mask = dataOrNull(saved[3]);
    buffers.hin = floats(saved[4]);
    buffers.u = floats(saved[5]);
    buffers.m = floats(saved[6]);
    buffers.hs = floats(saved[7]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dXp = floats(dXp);
    buffers.dU = floats(dU);
    buffers.dM = floats(dM);
    buffers.dWmh = floats(dWmh);
    buffers.dWhm = floats(dWhm);
    DeviceCall call(xp, cuda_glue::keptPrecision(ctx));
    cuda::mrnnWindowBackward({T, B, H, M}, buffers, call.ops);
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

FusedWindowResult cudaFusedRnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                     const torch::Tensor& wHh, const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, wHh});
  const auto out = CudaRnnWindowFunction::apply(windowInput(xp), windowInput(h0), windowInput(wHh),
                                                windowInput(windowMask(mask, h0)), keep,
                                                cuda_glue::bfloat16Now());
  return {out[0], out[1], {}};
}

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

FusedWindowResult cudaFusedRnnWindow(const torch::Tensor&, const torch::Tensor&,
                                     const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedRnnWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

FusedWindowResult cudaFusedMrnnWindow(const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&) {
  throw std::logic_error("cudaFusedMrnnWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
