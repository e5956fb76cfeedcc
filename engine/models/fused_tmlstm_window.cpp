#include "engine/models/fused_tmlstm_window.h"

#include <torch/torch.h>

#include <algorithm>
#include <vector>

#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/tmlstm_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class TmlstmWindowFunction : public torch::autograd::Function<TmlstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wMh, const torch::Tensor& v,
                               const torch::Tensor& mask) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1), M = v.size(2);
    const int64_t X = 4 * M + 4 * H;  // a row of xp: [W_mx x (4M) | W_x x + b (4H)]
    const auto options = xp.options();
    const auto shape = tmlstmWindowShapes({T, B, H, M});
    auto hin = torch::empty(shape.hin, options);
    auto u = torch::empty(shape.u, options);
    auto m = torch::empty(shape.m, options);
    auto gates = torch::empty(shape.gates, options);
    auto c = torch::empty(shape.c, options);
    auto tanhC = torch::empty(shape.tanhC, options);
    auto hs = torch::empty({T, B, H}, options);
    c.select(0, 0).copy_(c0);
    const float* maskData = dataOrNull(mask);
    const float* xpD = xp.data_ptr<float>();
    const float* wMhD = wMh.data_ptr<float>();
    const float* vD = v.data_ptr<float>();
    float* hinD = hin.data_ptr<float>();
    float* uD = u.data_ptr<float>();
    float* mD = m.data_ptr<float>();
    float* gD = gates.data_ptr<float>();
    float* cD = c.data_ptr<float>();
    float* tcD = tanhC.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* uT = uD + t * B * 4 * M;
      fusedProduct(true, B, 4 * M, H, hinT, H, wMhD, H, false, uT, 4 * M);  // u = h W_mh^T
      const float* xpT = xpD + t * B * X;
      float* mT = mD + t * B * 4 * M;
      float* gT = gD + t * B * 4 * H;
      multiplyRows(xpT, X, uT, 4 * M, mT, 4 * M, B, 4 * M);
      copyRows(xpT + 4 * M, X, gT, 4 * H, B, 4 * H);
      for (int64_t g = 0; g < 4; ++g) {  // gate g's rows += m_g V_g^T
        fusedProduct(true, B, H, M, mT + g * M, 4 * M, vD + g * H * M, M, true, gT + g * H, 4 * H);
      }
      float* h = hsD + t * B * H;
      lstmRowsForward(gT, 4 * H, cD + t * B * H, cD + (t + 1) * B * H, tcD + t * B * H, h, B, H);
      hPrev = h;
    }
    saveWindow(ctx, TmlstmWindowSaved<torch::Tensor>{xp, wMh, v, mask, hin, u, m, gates, c, tanhC});
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<TmlstmWindowSaved<torch::Tensor>>(ctx);
    const int64_t T = saved.hin.size(0), B = saved.hin.size(1), H = saved.hin.size(2),
                  M = saved.v.size(2);
    const int64_t X = 4 * M + 4 * H;
    const auto options = saved.hin.options();
    const float* maskData = dataOrNull(saved.mask);
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    // [dXm | dGates] per row, written in place.
    auto dXp = torch::empty({T, B, X}, options);
    auto dU = torch::empty({T, B, 4 * M}, options);
    auto dM = torch::empty({B, 4 * M}, options);
    auto dHin = torch::empty({B, H}, options);
    auto dhStep = torch::empty({B, H}, options);
    const float* xpD = saved.xp.data_ptr<float>();
    const float* wMhD = saved.wMh.data_ptr<float>();
    const float* vD = saved.v.data_ptr<float>();
    const float* uD = saved.u.data_ptr<float>();
    const float* gD = saved.gates.data_ptr<float>();
    const float* cD = saved.c.data_ptr<float>();
    const float* tcD = saved.tanhC.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dXpD = dXp.data_ptr<float>();
    float* dUD = dU.data_ptr<float>();
    float* dMD = dM.data_ptr<float>();
    float* dHinD = dHin.data_ptr<float>();
    float* dhStepD = dhStep.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    float* dcD = dc.data_ptr<float>();
    for (int64_t t = T - 1; t >= 0; --t) {
      float* dXpT = dXpD + t * B * X;
      addOrCopy(dhD, dOutD ? dOutD + t * B * H : nullptr, dhStepD, B * H);
      lstmRowsBackward(gD + t * B * 4 * H, 4 * H, cD + t * B * H, tcD + t * B * H, dhStepD, dcD,
                       dXpT + 4 * M, X, B, H);
      for (int64_t g = 0; g < 4; ++g) {  // dm_g = dG_g V_g
        fusedProduct(false, B, M, H, dXpT + 4 * M + g * H, X, vD + g * H * M, M, false, dMD + g * M,
                     4 * M);
      }
      const float* xpT = xpD + t * B * X;
      const float* uT = uD + t * B * 4 * M;
      float* dUT = dUD + t * B * 4 * M;
      multiplyRowsBackward(dMD, 4 * M, xpT, X, uT, 4 * M, dXpT, X, dUT, 4 * M, B, 4 * M);
      fusedProduct(false, B, H, 4 * M, dUT, 4 * M, wMhD, H, false, dHinD, H);  // du W_mh
      maskedCopy(dHinD, maskData, dhD, B * H);
    }
    const auto rows = dXp.view({T * B, X});
    const auto mRows = saved.m.view({T * B, 4 * M});
    std::vector<torch::Tensor> dV;
    for (int64_t g = 0; g < 4; ++g) {
      dV.push_back(rows.narrow(1, 4 * M + g * H, H).t().mm(mRows.narrow(1, g * M, M)));
    }
    const auto dWmh = dU.view({T * B, 4 * M}).t().mm(saved.hin.view({T * B, H}));
    return {dXp, dh, dc, dWmh, torch::stack(dV), torch::Tensor()};
  }
};

}  // namespace

FusedWindowResult fusedTmlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                    const torch::Tensor& c0, const torch::Tensor& wMh,
                                    const torch::Tensor& v, const torch::Tensor& mask) {
  const auto out =
      TmlstmWindowFunction::apply(xp.contiguous(), h0.contiguous(), c0.contiguous(),
                                  wMh.contiguous(), v.contiguous(), windowMask(mask, h0));
  return {out[0], out[1], out[2]};
}

}  // namespace mrnn::engine
