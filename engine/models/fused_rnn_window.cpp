#include "engine/models/fused_rnn_window.h"

#include <torch/torch.h>

#include <algorithm>

#include "engine/kernels/vector_kernels.h"
#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/rnn_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class RnnWindowFunction : public torch::autograd::Function<RnnWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wHh,
                               const torch::Tensor& mask) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1);
    const auto shape = rnnWindowShapes({T, B, H});
    auto hin = torch::empty(shape.hin, xp.options());
    auto hs = torch::empty(shape.hs, xp.options());
    const float* maskData = dataOrNull(mask);
    const float* xpD = xp.data_ptr<float>();
    const float* wD = wHh.data_ptr<float>();
    float* hinD = hin.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wPacked(wD, H, true, H, H, T * B);
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* h = hsD + t * B * H;
      std::copy(xpD + t * B * H, xpD + (t + 1) * B * H, h);
      fusedProduct(wPacked, B, hinT, H, true, h, H);  // += h W_hh^T
      tanhInPlace(h, B * H);
      hPrev = h;
    }
    saveWindow(ctx, RnnWindowSaved<torch::Tensor>{wHh, mask, hin, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<RnnWindowSaved<torch::Tensor>>(ctx);
    const int64_t T = saved.hin.size(0), B = saved.hin.size(1), H = saved.hin.size(2);
    const auto options = saved.hin.options();
    const float* maskData = dataOrNull(saved.mask);
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dXp = torch::empty({T, B, H}, options);  // the pre-activation's gradient
    auto dHin = torch::empty({B, H}, options);
    const float* wD = saved.wHh.data_ptr<float>();
    const float* hsD = saved.hs.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dXpD = dXp.data_ptr<float>();
    float* dHinD = dHin.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wPacked(wD, H, false, H, H, T * B);
    for (int64_t t = T - 1; t >= 0; --t) {
      const float* h = hsD + t * B * H;
      const float* dOut = dOutD ? dOutD + t * B * H : nullptr;
      float* dPre = dXpD + t * B * H;
      for (int64_t k = 0; k < B * H; ++k) {
        dPre[k] = (dhD[k] + (dOut ? dOut[k] : 0.0f)) * (1.0f - h[k] * h[k]);
      }
      fusedProduct(wPacked, B, dPre, H, false, dHinD, H);  // dh_in = dPre W_hh
      maskedCopy(dHinD, maskData, dhD, B * H);
    }
    const auto dW = dXp.view({T * B, H}).t().mm(saved.hin.view({T * B, H}));
    return {dXp, dh, dW, torch::Tensor()};
  }
};

}  // namespace

FusedWindowResult fusedRnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                 const torch::Tensor& wHh, const torch::Tensor& mask) {
  const auto out = RnnWindowFunction::apply(xp.contiguous(), h0.contiguous(), wHh.contiguous(),
                                            windowMask(mask, h0));
  return {out[0], out[1], {}};
}

}  // namespace mrnn::engine
