// The Mogrifier LSTM's fused window on CUDA tensors: a LibTorch autograd Function around
// engine/cuda's Mogrifier window, as fused_mogrifier_window.cpp is the CPU's. Its own, not
// gpu_window_function.h's: the rounds are a list of any length, low-rank or full. Built only
// where nvcc built engine/cuda (no_cuda_windows.cpp elsewhere).

#include "engine/models/cuda_fused_mogrifier_window.h"

#include <torch/torch.h>

#include <vector>

#include "engine/cuda/cuda_mogrifier_window.h"
#include "engine/models/cuda_window_call.h"
#include "engine/models/fused_mogrifier_window.h"
#include "engine/models/gpu_window_function.h"

namespace mrnn::engine {

namespace {

using namespace cuda_glue;  // floats, DeviceCall, AutogradContext, ...

cuda::MogrifierWindowWeights weightsOf(const torch::Tensor& wX, const torch::Tensor& b,
                                       const torch::Tensor& wH, at::TensorList rounds,
                                       bool lowRank) {
  cuda::MogrifierWindowWeights weights;
  static_cast<MogrifierRoundMatrices&>(weights) = mogrifierRoundMatrices(rounds, lowRank);
  weights.wX = floats(wX);
  weights.b = b.defined() ? floats(b) : nullptr;
  weights.wH = floats(wH);
  return weights;
}

class CudaMogrifierWindowFunction : public torch::autograd::Function<CudaMogrifierWindowFunction> {
 public:
  // rounds is a TensorList so that autograd counts each round tensor as an input of its own
  // and backward returns one gradient per round tensor in this order.
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& x,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wX, const torch::Tensor& b,
                               const torch::Tensor& wH, const torch::Tensor& mask,
                               at::TensorList rounds, bool lowRank, bool zigzag, bool keep,
                               bool bfloat16) {
    const auto w = mogrifierWindowLayout(x, wH, rounds, lowRank, zigzag);
    const int64_t T = w.T, B = w.B, I = w.I, H = w.H, K = w.rank;
    const auto options = x.options();
    auto xR = torch::empty({w.oddRounds(), T, B, I}, options);
    auto hR = torch::empty({w.evenRounds() + 1, T, B, H}, options);
    auto sX = torch::empty({w.oddRounds(), T, B, I}, options);
    auto sH = torch::empty({w.evenRounds(), T, B, H}, options);
    auto z = torch::empty({K > 0 ? w.rounds : 0, T, B, K}, options);
    auto gates = torch::empty({T, B, 4 * H}, options);
    auto c = torch::empty({T + 1, B, H}, options);
    auto tanhC = torch::empty({T, B, H}, options);
    auto hs = torch::empty({T, B, H}, options);
    cuda::MogrifierWindowForwardBuffers buffers;
    buffers.x = floats(x);
    buffers.h0 = floats(h0);
    buffers.c0 = floats(c0);
    buffers.mask = dataOrNull(mask);
    buffers.xR = floats(xR);
    buffers.hR = floats(hR);
    buffers.sX = floats(sX);
    buffers.sH = floats(sH);
    buffers.z = K > 0 ? floats(z) : nullptr;
    buffers.gates = floats(gates);
    buffers.c = floats(c);
    buffers.tanhC = floats(tanhC);
    buffers.hs = floats(hs);
    DeviceCall call(x, gpu_window::keepPrecision(ctx, bfloat16));
    cuda::mogrifierWindowForward(w, weightsOf(wX, b, wH, rounds, lowRank), buffers, call.ops);
    if (keep) {
      MogrifierWindowSaved{x, wX,    wH, mask,  xR,           hR,      sX,    sH,
                           z, gates, c,  tanhC, rounds.vec(), lowRank, zigzag}
          .saveTo(ctx);
    }
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = MogrifierWindowSaved::from(ctx);
    const bool lowRank = saved.lowRank;
    const auto w = mogrifierWindowLayout(saved.x, saved.wH, saved.rounds, lowRank, saved.zigzag);
    const int64_t T = w.T, B = w.B, I = w.I, H = w.H, G = 4 * H, K = w.rank;
    const auto options = saved.x.options();
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    auto dX = torch::empty({T, B, I}, options);
    auto dG = torch::empty({T, B, G}, options);
    auto dPreX = torch::empty({w.oddRounds(), T, B, I}, options);
    auto dPreH = torch::empty({w.evenRounds(), T, B, H}, options);
    auto dZ = torch::empty({K > 0 ? w.rounds : 0, T, B, K}, options);
    auto work = torch::empty({B, 2 * H + I}, options);  // dHCur, dSrcH, dSrcX
    auto dWx = torch::empty({G, I}, options);
    auto db = torch::empty({G}, options);
    auto dWh = torch::empty({G, H}, options);
    cuda::MogrifierWindowBackwardBuffers buffers;
    buffers.x = floats(saved.x);
    buffers.mask = dataOrNull(saved.mask);
    buffers.xR = floats(saved.xR);
    buffers.hR = floats(saved.hR);
    buffers.sX = floats(saved.sX);
    buffers.sH = floats(saved.sH);
    buffers.z = K > 0 ? floats(saved.z) : nullptr;
    buffers.gates = floats(saved.gates);
    buffers.c = floats(saved.c);
    buffers.tanhC = floats(saved.tanhC);
    buffers.dHs = dataOrNull(dHs);
    buffers.dh = floats(dh);
    buffers.dc = floats(dc);
    buffers.dX = floats(dX);
    buffers.dG = floats(dG);
    buffers.dPreX = floats(dPreX);
    buffers.dPreH = floats(dPreH);
    buffers.dZ = K > 0 ? floats(dZ) : nullptr;
    buffers.dHCur = floats(work);
    buffers.dSrcH = buffers.dHCur + B * H;
    buffers.dSrcX = buffers.dSrcH + B * H;
    buffers.dWx = floats(dWx);
    buffers.db = floats(db);
    buffers.dWh = floats(dWh);
    variable_list out = {dX, dh, dc, dWx, db, dWh, torch::Tensor()};  // the mask: none
    for (size_t k = 0; k < saved.rounds.size(); ++k) {
      auto gradient = torch::empty_like(saved.rounds[k]);
      out.push_back(gradient);
      float* p = floats(gradient);
      if (!lowRank) {
        buffers.dFull.push_back(p);
      } else {
        (k % 2 == 0 ? buffers.dLeft : buffers.dRight).push_back(p);  // left, right, left, ...
      }
    }
    DeviceCall call(saved.x, gpu_window::keptPrecision(ctx));
    cuda::mogrifierWindowBackward(
        w, weightsOf(saved.wX, torch::Tensor(), saved.wH, saved.rounds, lowRank), buffers,
        call.ops);
    out.emplace_back();  // lowRank
    out.emplace_back();  // zigzag
    out.emplace_back();  // keep
    out.emplace_back();  // bfloat16
    return out;
  }
};

}  // namespace

FusedWindowResult cudaFusedMogrifierWindow(const torch::Tensor& x, const torch::Tensor& h0,
                                           const torch::Tensor& c0, const torch::Tensor& wX,
                                           const torch::Tensor& b, const torch::Tensor& wH,
                                           const std::vector<torch::Tensor>& rounds, bool lowRank,
                                           bool zigzag, const torch::Tensor& mask) {
  std::vector<torch::Tensor> inputs = {x, h0, c0, wX, b, wH};
  std::vector<torch::Tensor> contiguous;
  contiguous.reserve(rounds.size());
  for (const auto& round : rounds) {
    contiguous.push_back(windowInput(round));
    inputs.push_back(round);
  }
  const bool keep = windowNeedsBackward(inputs);
  const auto out = CudaMogrifierWindowFunction::apply(
      windowInput(x), windowInput(h0), windowInput(c0), windowInput(wX), windowInput(b),
      windowInput(wH), windowInput(windowMask(mask, h0)), at::TensorList(contiguous), lowRank,
      zigzag, keep, cuda_glue::bfloat16Now());
  return {out[0], out[1], out[2]};
}

}  // namespace mrnn::engine
