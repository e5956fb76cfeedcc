#include "engine/models/fused_mgru_window.h"

#include <torch/torch.h>

#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/mgru_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class MgruWindowFunction : public torch::autograd::Function<MgruWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMh,
                               const torch::Tensor& vZr, const torch::Tensor& vH,
                               const torch::Tensor& mask) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1), M = wMh.size(0);
    const int64_t G = 2 * H + M;  // a row of gates: [z (H) | r (M) | j (H)]
    const int64_t X = M + G;      // a row of xp: [W_mx x | the gates' U x + b]
    const auto options = xp.options();
    // Everything backward needs, one tensor per kind for the window (no per-step tensors).
    const auto shape = mgruWindowShapes({T, B, H, M});
    auto hin = torch::empty(shape.hin, options);
    auto u = torch::empty(shape.u, options);
    auto m = torch::empty(shape.m, options);
    auto gates = torch::empty(shape.gates, options);
    auto rm = torch::empty(shape.rm, options);
    auto hs = torch::empty(shape.hs, options);
    const float* maskData = dataOrNull(mask);
    const float* xpD = xp.data_ptr<float>();
    const float* wMhD = wMh.data_ptr<float>();
    const float* vZrD = vZr.data_ptr<float>();
    const float* vHD = vH.data_ptr<float>();
    float* hinD = hin.data_ptr<float>();
    float* uD = u.data_ptr<float>();
    float* mD = m.data_ptr<float>();
    float* gD = gates.data_ptr<float>();
    float* rmD = rm.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wMhPacked(wMhD, H, true, M, H, T * B);
    const PackedWeights vZrPacked(vZrD, M, true, H + M, M, T * B);
    const PackedWeights vHPacked(vHD, M, true, H, M, T * B);
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* uT = uD + t * B * M;
      fusedProduct(wMhPacked, B, hinT, H, false, uT, M);  // u = hin W_mh^T
      const float* xpT = xpD + t * B * X;
      float* mT = mD + t * B * M;
      float* gT = gD + t * B * G;
      multiplyRows(xpT, X, uT, M, mT, M, B, M);
      copyRows(xpT + M, X, gT, G, B, G);
      fusedProduct(vZrPacked, B, mT, M, true, gT, G);  // [z r] += m [V_z; V_r]^T
      sigmoidRows(gT, G, B, H + M);
      float* rmT = rmD + t * B * M;
      resetRowsForward(gT + H, G, mT, rmT, B, M);
      fusedProduct(vHPacked, B, rmT, M, true, gT + H + M, G);  // j += (r m) V_h^T
      tanhRows(gT + H + M, G, B, H);
      float* h = hsD + t * B * H;
      gruRowsForward(gT, G, gT + H + M, G, hPrev, h, B, H);
      hPrev = h;
    }
    saveWindow(
        ctx, MgruWindowSaved<torch::Tensor>{xp, h0, wMh, vZr, vH, mask, hin, u, m, gates, rm, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<MgruWindowSaved<torch::Tensor>>(ctx);
    const int64_t T = saved.xp.size(0), B = saved.xp.size(1), H = saved.hin.size(2),
                  M = saved.wMh.size(0);
    const int64_t G = 2 * H + M;
    const int64_t X = M + G;
    const auto options = saved.xp.options();
    const float* maskData = dataOrNull(saved.mask);

    // The gradients flowing into the outputs (undefined where nothing used an output).
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);

    // The input projections' gradient, written in place: [dXm | dz | dr | dj] per row, the
    // gates' entries being their pre-activations' gradients.
    auto dXp = torch::empty({T, B, X}, options);
    auto dU = torch::empty({T, B, M}, options);  // kept for W_mh's gradient
    auto dM = torch::empty({B, M}, options);     // the gradient reaching r * m, then m
    auto dHin = torch::empty({B, H}, options);
    auto dhStep = torch::empty({B, H}, options);
    const float* xpD = saved.xp.data_ptr<float>();
    const float* wMhD = saved.wMh.data_ptr<float>();
    const float* vZrD = saved.vZr.data_ptr<float>();
    const float* vHD = saved.vH.data_ptr<float>();
    const float* uD = saved.u.data_ptr<float>();
    const float* mD = saved.m.data_ptr<float>();
    const float* gD = saved.gates.data_ptr<float>();
    const float* hsD = saved.hs.data_ptr<float>();
    const float* h0D = saved.h0.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dXpD = dXp.data_ptr<float>();
    float* dUD = dU.data_ptr<float>();
    float* dMD = dM.data_ptr<float>();
    float* dHinD = dHin.data_ptr<float>();
    float* dhStepD = dhStep.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights vHPacked(vHD, M, false, M, H, T * B);
    const PackedWeights vZrPacked(vZrD, M, false, M, H + M, T * B);
    const PackedWeights wMhPacked(wMhD, H, false, H, M, T * B);
    for (int64_t t = T - 1; t >= 0; --t) {
      const float* gT = gD + t * B * G;
      const float* hPrev = t > 0 ? hsD + (t - 1) * B * H : h0D;
      float* dXpT = dXpD + t * B * X;
      float* dGT = dXpT + M;  // rows of [dz | dr | dj]
      addOrCopy(dhD, dOutD ? dOutD + t * B * H : nullptr, dhStepD, B * H);
      // dz, dj, and dh_{t-1} = dh (1 - z) through the update.
      gruRowsBackward(gT, G, gT + H + M, G, hPrev, dhStepD, dGT, X, dGT + H + M, X, dhD, B, H);
      fusedProduct(vHPacked, B, dGT + H + M, X, false, dMD, M);                  // d(r m) = dj V_h
      resetRowsBackward(gT + H, G, mD + t * B * M, dMD, dGT + H, X, dMD, B, M);  // dr, r d(r m)
      fusedProduct(vZrPacked, B, dGT, X, true, dMD, M);  // dm += [dz dr] V_zr
      const float* xpT = xpD + t * B * X;
      const float* uT = uD + t * B * M;
      float* dUT = dUD + t * B * M;
      multiplyRowsBackward(dMD, M, xpT, X, uT, M, dXpT, X, dUT, M, B, M);
      fusedProduct(wMhPacked, B, dUT, M, false, dHinD, H);  // dh_in = du W_mh
      maskedAccumulate(dHinD, maskData, dhD, B * H);
    }
    // The weights' gradients: one product over all T x B rows each.
    const auto dXpRows = dXp.view({T * B, X});
    const auto dWmh = dU.view({T * B, M}).t().mm(saved.hin.view({T * B, H}));
    const auto dVzr = dXpRows.narrow(1, M, H + M).t().mm(saved.m.view({T * B, M}));
    const auto dVh = dXpRows.narrow(1, M + H + M, H).t().mm(saved.rm.view({T * B, M}));
    return {dXp, dh, dWmh, dVzr, dVh, torch::Tensor()};
  }
};

}  // namespace

FusedWindowResult fusedMgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                  const torch::Tensor& wMh, const torch::Tensor& vZr,
                                  const torch::Tensor& vH, const torch::Tensor& mask) {
  const auto out =
      MgruWindowFunction::apply(xp.contiguous(), h0.contiguous(), wMh.contiguous(),
                                vZr.contiguous(), vH.contiguous(), windowMask(mask, h0));
  return {out[0], out[1], {}};
}

}  // namespace mrnn::engine
