#include "engine/models/cuda_fused_windows.h"

#include <torch/torch.h>

#include <stdexcept>

#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_context.h"
#include "engine/cuda/cuda_lstm_window.h"
#include "engine/cuda/cuda_mlstm_window.h"
#endif

namespace mrnn::engine {

#ifdef MRNN_HAVE_CUDA_KERNELS
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

float* data(torch::Tensor& t) {
  return t.data_ptr<float>();
}
const float* data(const torch::Tensor& t) {
  return t.data_ptr<float>();
}

// LibTorch's current stream on a device is its default (legacy) stream unless a caller
// chose another; this engine never does, so the kernels run in order with LibTorch's work.
cuda::Stream libtorchStream() {
  return nullptr;
}

// The thread's cuBLAS handle on the tensors' device, with that device current.
struct DeviceCall {
  explicit DeviceCall(const torch::Tensor& t)
      : scope(t.device().index()), blas(cuda::threadBlasHandle(t.device().index())) {}
  cuda::DeviceScope scope;
  cuda::BlasHandle blas;
};

class CudaMlstmWindowFunction : public torch::autograd::Function<CudaMlstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wMh, const torch::Tensor& wM,
                               const torch::Tensor& mask, bool keep) {
    const cuda::MlstmWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1), wMh.size(0)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto c = torch::empty({T + 1, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto u = torch::empty({T, B, M}, options);
    auto m = torch::empty({T, B, M}, options);
    auto gates = torch::empty({T, B, 4 * H}, options);
    auto tanhC = torch::empty({T, B, H}, options);
    cuda::MlstmWindowForwardBuffers buffers;
    buffers.xp = data(xp);
    buffers.h0 = data(h0);
    buffers.c0 = data(c0);
    buffers.wMh = data(wMh);
    buffers.wM = data(wM);
    buffers.mask = dataOrNull(mask);
    buffers.hs = data(hs);
    buffers.c = data(c);
    buffers.hin = data(hin);
    buffers.u = data(u);
    buffers.m = data(m);
    buffers.gates = data(gates);
    buffers.tanhC = data(tanhC);
    DeviceCall call(xp);
    cuda::mlstmWindowForward(sizes, buffers, call.blas, libtorchStream());
    if (keep) ctx->save_for_backward({xp, wMh, wM, mask, hin, u, m, gates, c, tanhC});
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& xp = saved[0];
    const auto& wMh = saved[1];
    const auto& wM = saved[2];
    const int64_t T = xp.size(0), B = xp.size(1), H = saved[4].size(2), M = wMh.size(0);
    const auto options = xp.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    auto dXp = torch::empty({T, B, M + 4 * H}, options);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto dWmh = torch::empty({M, H}, options);
    auto dWm = torch::empty({4 * H, M}, options);
    cuda::MlstmWindowBackwardBuffers buffers;
    buffers.xp = data(xp);
    buffers.wMh = data(wMh);
    buffers.wM = data(wM);
    buffers.mask = dataOrNull(saved[3]);
    buffers.hin = data(saved[4]);
    buffers.u = data(saved[5]);
    buffers.m = data(saved[6]);
    buffers.gates = data(saved[7]);
    buffers.c = data(saved[8]);
    buffers.tanhC = data(saved[9]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = data(dh);
    buffers.dc = data(dc);
    buffers.dXp = data(dXp);
    buffers.dU = data(dU);
    buffers.dM = data(dM);
    buffers.dWmh = data(dWmh);
    buffers.dWm = data(dWm);
    DeviceCall call(xp);
    cuda::mlstmWindowBackward({T, B, H, M}, buffers, call.blas, libtorchStream());
    return {dXp, dh, dc, dWmh, dWm, torch::Tensor(), torch::Tensor()};
  }
};

class CudaLstmWindowFunction : public torch::autograd::Function<CudaLstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wH, const torch::Tensor& mask, bool keep) {
    const cuda::LstmWindowSizes sizes{xp.size(0), xp.size(1), h0.size(1)};
    const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
    const auto options = xp.options();
    auto hs = torch::empty({T, B, H}, options);
    auto c = torch::empty({T + 1, B, H}, options);
    auto hin = torch::empty({T, B, H}, options);
    auto gates = torch::empty({T, B, 4 * H}, options);
    auto tanhC = torch::empty({T, B, H}, options);
    cuda::LstmWindowForwardBuffers buffers;
    buffers.xp = data(xp);
    buffers.h0 = data(h0);
    buffers.c0 = data(c0);
    buffers.wH = data(wH);
    buffers.mask = dataOrNull(mask);
    buffers.hs = data(hs);
    buffers.c = data(c);
    buffers.hin = data(hin);
    buffers.gates = data(gates);
    buffers.tanhC = data(tanhC);
    DeviceCall call(xp);
    cuda::lstmWindowForward(sizes, buffers, call.blas, libtorchStream());
    if (keep) ctx->save_for_backward({wH, mask, hin, gates, c, tanhC});
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& wH = saved[0];
    const auto& hin = saved[2];
    const int64_t T = hin.size(0), B = hin.size(1), H = hin.size(2);
    const auto options = hin.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    auto dXp = torch::empty({T, B, 4 * H}, options);
    auto dWh = torch::empty({4 * H, H}, options);
    cuda::LstmWindowBackwardBuffers buffers;
    buffers.wH = data(wH);
    buffers.mask = dataOrNull(saved[1]);
    buffers.hin = data(hin);
    buffers.gates = data(saved[3]);
    buffers.c = data(saved[4]);
    buffers.tanhC = data(saved[5]);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = data(dh);
    buffers.dc = data(dc);
    buffers.dXp = data(dXp);
    buffers.dWh = data(dWh);
    DeviceCall call(hin);
    cuda::lstmWindowBackward({T, B, H}, buffers, call.blas, libtorchStream());
    return {dXp, dh, dc, dWh, torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor> tensors) {
  if (tensors.size() == 0) return false;
  const auto device = tensors.begin()->device();
  for (const auto& t : tensors) {
    if (!t.defined() || !t.is_cuda() || t.device() != device ||
        t.scalar_type() != torch::kFloat32) {
      return false;
    }
  }
  return tensors.begin()->size(0) > 0;
}

FusedWindowResult cudaFusedMlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& c0, const torch::Tensor& wMh,
                                       const torch::Tensor& wM, const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, c0, wMh, wM});
  const auto out =
      CudaMlstmWindowFunction::apply(xp.contiguous(), h0.contiguous(), c0.contiguous(),
                                     wMh.contiguous(), wM.contiguous(), windowMask(mask, h0), keep);
  return {out[0], out[1], out[2]};
}

FusedWindowResult cudaFusedLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& c0, const torch::Tensor& wH,
                                      const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, c0, wH});
  const auto out = CudaLstmWindowFunction::apply(xp.contiguous(), h0.contiguous(), c0.contiguous(),
                                                 wH.contiguous(), windowMask(mask, h0), keep);
  return {out[0], out[1], out[2]};
}

#else  // built without engine/cuda: no CUDA tensor is ever handed to the kernels

bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor>) {
  return false;
}

FusedWindowResult cudaFusedMlstmWindow(const torch::Tensor&, const torch::Tensor&,
                                       const torch::Tensor&, const torch::Tensor&,
                                       const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("cudaFusedMlstmWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

FusedWindowResult cudaFusedLstmWindow(const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&, const torch::Tensor&,
                                      const torch::Tensor&) {
  throw std::logic_error("cudaFusedLstmWindow: this build has no CUDA kernels (MRNN_CUDA)");
}

#endif

}  // namespace mrnn::engine
