#include "engine/models/fused_tmlstm_window.h"

#include <torch/torch.h>

#include <algorithm>
#include <array>
#include <vector>

#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/tmlstm_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// V's four gate blocks [H, M] each (v: [4, H, M]), packed for op(V_g) = V_g^T (`transposed`,
// the forward's n = H, k = M) or V_g (the backward's n = M, k = H).
std::vector<PackedWeights> gateWeights(const float* v, bool transposed, int64_t n, int64_t k,
                                       int64_t rows) {
  std::vector<PackedWeights> gates;
  gates.reserve(4);
  const int64_t M = transposed ? k : n, H = transposed ? n : k;
  for (int64_t g = 0; g < 4; ++g) gates.emplace_back(v + g * H * M, M, transposed, n, k, rows);
  return gates;
}

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
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wMhPacked(wMhD, H, true, 4 * M, H, T * B);
    const auto vPacked = gateWeights(vD, true, H, M, T * B);
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* uT = uD + t * B * 4 * M;
      fusedProduct(wMhPacked, B, hinT, H, false, uT, 4 * M);  // u = h W_mh^T
      const float* xpT = xpD + t * B * X;
      float* mT = mD + t * B * 4 * M;
      float* gT = gD + t * B * 4 * H;
      multiplyRows(xpT, X, uT, 4 * M, mT, 4 * M, B, 4 * M);
      copyRows(xpT + 4 * M, X, gT, 4 * H, B, 4 * H);
      std::array<PackedProduct, 4> perGate;  // gate g's rows += m_g V_g^T, the four together
      for (int64_t g = 0; g < 4; ++g) {
        perGate[g] = {&vPacked[g], B, mT + g * M, 4 * M, true, gT + g * H, 4 * H};
      }
      fusedProducts(perGate.data(), perGate.size());
      float* h = hsD + t * B * H;
      lstmRowsForward(gT, 4 * H, cD + t * B * H, cD + (t + 1) * B * H, tcD + t * B * H, h, B, H, H);
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
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wMhPacked(wMhD, H, false, H, 4 * M, T * B);
    const auto vPacked = gateWeights(vD, false, M, H, T * B);
    for (int64_t t = T - 1; t >= 0; --t) {
      float* dXpT = dXpD + t * B * X;
      addOrCopy(dhD, dOutD ? dOutD + t * B * H : nullptr, dhStepD, B * H);
      lstmRowsBackward(gD + t * B * 4 * H, 4 * H, cD + t * B * H, tcD + t * B * H, dhStepD, dcD,
                       dXpT + 4 * M, X, B, H, H);
      std::array<PackedProduct, 4> perGate;  // dm_g = dG_g V_g, the four together
      for (int64_t g = 0; g < 4; ++g) {
        perGate[g] = {&vPacked[g], B, dXpT + 4 * M + g * H, X, false, dMD + g * M, 4 * M};
      }
      fusedProducts(perGate.data(), perGate.size());
      const float* xpT = xpD + t * B * X;
      const float* uT = uD + t * B * 4 * M;
      float* dUT = dUD + t * B * 4 * M;
      multiplyRowsBackward(dMD, 4 * M, xpT, X, uT, 4 * M, dXpT, X, dUT, 4 * M, B, 4 * M);
      fusedProduct(wMhPacked, B, dUT, 4 * M, false, dHinD, H);  // du W_mh
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
