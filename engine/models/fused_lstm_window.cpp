#include "engine/models/fused_lstm_window.h"

#include <torch/torch.h>

#include <algorithm>

#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/lstm_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class LstmWindowFunction : public torch::autograd::Function<LstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wH, const torch::Tensor& mask) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1);
    const auto options = xp.options();
    // Everything backward needs, one tensor per kind for the window.
    const auto shape = lstmWindowShapes({T, B, H});
    auto hin = torch::empty(shape.hin, options);
    auto gates = torch::empty(shape.gates, options);
    auto c = torch::empty(shape.c, options);
    auto tanhC = torch::empty(shape.tanhC, options);
    auto hs = torch::empty({T, B, H}, options);
    c.select(0, 0).copy_(c0);
    const float* maskData = dataOrNull(mask);
    // xp may be a column block of a wider projection (the Major-Minor LSTM's halves): rows
    // are read through its strides, so no copy of the block is made.
    const float* xpD = xp.data_ptr<float>();
    const int64_t xpStep = xp.stride(0), xpRow = xp.stride(1);
    const float* wHD = wH.data_ptr<float>();
    float* hinD = hin.data_ptr<float>();
    float* gD = gates.data_ptr<float>();
    float* cD = c.data_ptr<float>();
    float* tcD = tanhC.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* gT = gD + t * B * 4 * H;
      copyRows(xpD + t * xpStep, xpRow, gT, 4 * H, B, 4 * H);
      fusedProduct(true, B, 4 * H, H, hinT, H, wHD, H, true, gT, 4 * H);  // += h W_h^T
      float* h = hsD + t * B * H;
      lstmRowsForward(gT, 4 * H, cD + t * B * H, cD + (t + 1) * B * H, tcD + t * B * H, h, B, H);
      hPrev = h;
    }
    saveWindow(ctx, LstmWindowSaved<torch::Tensor>{wH, mask, hin, gates, c, tanhC});
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<LstmWindowSaved<torch::Tensor>>(ctx);
    const int64_t T = saved.hin.size(0), B = saved.hin.size(1), H = saved.hin.size(2);
    const auto options = saved.hin.options();
    const float* maskData = dataOrNull(saved.mask);
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    // The gates' pre-activation gradients are the input projection's gradient as they are.
    auto dXp = torch::empty({T, B, 4 * H}, options);
    auto dHin = torch::empty({B, H}, options);
    auto dhStep = torch::empty({B, H}, options);
    const float* wHD = saved.wH.data_ptr<float>();
    const float* gD = saved.gates.data_ptr<float>();
    const float* cD = saved.c.data_ptr<float>();
    const float* tcD = saved.tanhC.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dXpD = dXp.data_ptr<float>();
    float* dHinD = dHin.data_ptr<float>();
    float* dhStepD = dhStep.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    float* dcD = dc.data_ptr<float>();
    for (int64_t t = T - 1; t >= 0; --t) {
      addOrCopy(dhD, dOutD ? dOutD + t * B * H : nullptr, dhStepD, B * H);
      float* dG = dXpD + t * B * 4 * H;
      lstmRowsBackward(gD + t * B * 4 * H, 4 * H, cD + t * B * H, tcD + t * B * H, dhStepD, dcD, dG,
                       4 * H, B, H);
      fusedProduct(false, B, H, 4 * H, dG, 4 * H, wHD, H, false, dHinD, H);  // dh_in = dG W_h
      maskedCopy(dHinD, maskData, dhD, B * H);
    }
    const auto dWh = dXp.view({T * B, 4 * H}).t().mm(saved.hin.view({T * B, H}));
    return {dXp, dh, dc, dWh, torch::Tensor()};
  }
};

}  // namespace

FusedWindowResult fusedLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                  const torch::Tensor& c0, const torch::Tensor& wH,
                                  const torch::Tensor& mask) {
  const auto out =
      LstmWindowFunction::apply(xp.stride(2) == 1 ? xp : xp.contiguous(), h0.contiguous(),
                                c0.contiguous(), wH.contiguous(), windowMask(mask, h0));
  return {out[0], out[1], out[2]};
}

}  // namespace mrnn::engine
