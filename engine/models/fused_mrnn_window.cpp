#include "engine/models/fused_mrnn_window.h"

#include <torch/torch.h>

#include <algorithm>

#include "engine/kernels/vector_kernels.h"
#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/mrnn_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class MrnnWindowFunction : public torch::autograd::Function<MrnnWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMh,
                               const torch::Tensor& wHm, const torch::Tensor& mask) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1), M = wMh.size(0);
    const int64_t X = M + H;  // a row of xp: [W_mx x | W_hx x + b]
    const auto options = xp.options();
    const auto shape = mrnnWindowShapes({T, B, H, M});
    auto hin = torch::empty(shape.hin, options);
    auto u = torch::empty(shape.u, options);
    auto m = torch::empty(shape.m, options);
    auto hs = torch::empty(shape.hs, options);
    const float* maskData = dataOrNull(mask);
    const float* xpD = xp.data_ptr<float>();
    const float* wMhD = wMh.data_ptr<float>();
    const float* wHmD = wHm.data_ptr<float>();
    float* hinD = hin.data_ptr<float>();
    float* uD = u.data_ptr<float>();
    float* mD = m.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wMhPacked(wMhD, H, true, M, H, T * B);
    const PackedWeights wHmPacked(wHmD, M, true, H, M, T * B);
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* uT = uD + t * B * M;
      fusedProduct(wMhPacked, B, hinT, H, false, uT, M);  // u = h W_mh^T
      const float* xpT = xpD + t * B * X;
      float* mT = mD + t * B * M;
      float* h = hsD + t * B * H;
      multiplyRows(xpT, X, uT, M, mT, M, B, M);
      copyRows(xpT + M, X, h, H, B, H);
      fusedProduct(wHmPacked, B, mT, M, true, h, H);  // += m W_hm^T
      tanhInPlace(h, B * H);
      hPrev = h;
    }
    saveWindow(ctx, MrnnWindowSaved<torch::Tensor>{xp, wMh, wHm, mask, hin, u, m, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<MrnnWindowSaved<torch::Tensor>>(ctx);
    const int64_t T = saved.hin.size(0), B = saved.hin.size(1), H = saved.hin.size(2),
                  M = saved.wMh.size(0);
    const int64_t X = M + H;
    const auto options = saved.hin.options();
    const float* maskData = dataOrNull(saved.mask);
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    // [dXm | dPre] per row, written in place: dPre is the gradient of tanh's argument.
    auto dXp = torch::empty({T, B, X}, options);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto dHin = torch::empty({B, H}, options);
    const float* xpD = saved.xp.data_ptr<float>();
    const float* wMhD = saved.wMh.data_ptr<float>();
    const float* wHmD = saved.wHm.data_ptr<float>();
    const float* uD = saved.u.data_ptr<float>();
    const float* hsD = saved.hs.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dXpD = dXp.data_ptr<float>();
    float* dUD = dU.data_ptr<float>();
    float* dMD = dM.data_ptr<float>();
    float* dHinD = dHin.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wHmPacked(wHmD, M, false, M, H, T * B);
    const PackedWeights wMhPacked(wMhD, H, false, H, M, T * B);
    for (int64_t t = T - 1; t >= 0; --t) {
      const float* h = hsD + t * B * H;
      const float* dOut = dOutD ? dOutD + t * B * H : nullptr;
      float* dXpT = dXpD + t * B * X;
      for (int64_t b = 0; b < B; ++b) {
        float* dPre = dXpT + b * X + M;
        for (int64_t k = 0; k < H; ++k) {
          const int64_t at = b * H + k;
          dPre[k] = (dhD[at] + (dOut ? dOut[at] : 0.0f)) * (1.0f - h[at] * h[at]);
        }
      }
      fusedProduct(wHmPacked, B, dXpT + M, X, false, dMD, M);  // dm = dPre W_hm
      const float* xpT = xpD + t * B * X;
      const float* uT = uD + t * B * M;
      float* dUT = dUD + t * B * M;
      multiplyRowsBackward(dMD, M, xpT, X, uT, M, dXpT, X, dUT, M, B, M);
      fusedProduct(wMhPacked, B, dUT, M, false, dHinD, H);  // dh_in = du W_mh
      maskedCopy(dHinD, maskData, dhD, B * H);
    }
    const auto dWhm = dXp.view({T * B, X}).narrow(1, M, H).t().mm(saved.m.view({T * B, M}));
    const auto dWmh = dU.view({T * B, M}).t().mm(saved.hin.view({T * B, H}));
    return {dXp, dh, dWmh, dWhm, torch::Tensor()};
  }
};

}  // namespace

FusedWindowResult fusedMrnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                  const torch::Tensor& wMh, const torch::Tensor& wHm,
                                  const torch::Tensor& mask) {
  const auto out = MrnnWindowFunction::apply(xp.contiguous(), h0.contiguous(), wMh.contiguous(),
                                             wHm.contiguous(), windowMask(mask, h0));
  return {out[0], out[1], {}};
}

}  // namespace mrnn::engine
