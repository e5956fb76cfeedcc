#include "engine/models/fused_tmgru_window.h"

#include <torch/torch.h>

#include <array>

#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/tmgru_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class TmgruWindowFunction : public torch::autograd::Function<TmgruWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wMhZr,
                               const torch::Tensor& wMhH, const torch::Tensor& v,
                               const torch::Tensor& mask) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1), M = wMhH.size(0);
    const int64_t X = 3 * M + 3 * H;  // a row of xp: [W_mx x (z r h) | U x + b (z r j)]
    const int64_t N = 3 * M;          // W_mx x's columns of a row of xp: [z | r | h]
    const auto options = xp.options();
    // Everything backward needs, one tensor per kind for the window (no per-step tensors).
    const auto shape = tmgruWindowShapes({T, B, H, M});
    auto hin = torch::empty(shape.hin, options);
    auto uZr = torch::empty(shape.uZr, options);
    auto mZr = torch::empty(shape.mZr, options);
    auto gates = torch::empty(shape.gates, options);
    auto rh = torch::empty(shape.rh, options);
    auto uH = torch::empty(shape.uH, options);
    auto mH = torch::empty(shape.mH, options);
    auto hs = torch::empty(shape.hs, options);
    const float* maskData = dataOrNull(mask);
    const float* xpD = xp.data_ptr<float>();
    const float* wMhZrD = wMhZr.data_ptr<float>();
    const float* wMhHD = wMhH.data_ptr<float>();
    const float* vZ = v.data_ptr<float>();  // the blocks V_z, V_r, V_h, each [H, M]
    const float* vR = vZ + H * M;
    const float* vH = vR + H * M;
    float* hinD = hin.data_ptr<float>();
    float* uZrD = uZr.data_ptr<float>();
    float* mZrD = mZr.data_ptr<float>();
    float* gD = gates.data_ptr<float>();
    float* rhD = rh.data_ptr<float>();
    float* uHD = uH.data_ptr<float>();
    float* mHD = mH.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wMhZrPacked(wMhZrD, H, true, 2 * M, H, T * B);
    const PackedWeights wMhHPacked(wMhHD, H, true, M, H, T * B);
    const PackedWeights vHPacked(vH, M, true, H, M, T * B);
    const PackedWeights vZPacked(vZ, M, true, H, M, T * B);
    const PackedWeights vRPacked(vR, M, true, H, M, T * B);
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      const float* xpT = xpD + t * B * X;
      float* uZrT = uZrD + t * B * 2 * M;
      float* mZrT = mZrD + t * B * 2 * M;
      float* gT = gD + t * B * 3 * H;
      fusedProduct(wMhZrPacked, B, hinT, H, false, uZrT, 2 * M);  // hin W_mh_zr^T
      multiplyRows(xpT, X, uZrT, 2 * M, mZrT, 2 * M, B, 2 * M);
      copyRows(xpT + N, X, gT, 3 * H, B, 3 * H);
      const std::array<PackedProduct, 2> zr = {
          PackedProduct{&vZPacked, B, mZrT, 2 * M, true, gT, 3 * H},           // z += m_z V_z^T
          PackedProduct{&vRPacked, B, mZrT + M, 2 * M, true, gT + H, 3 * H}};  // r += m_r V_r^T
      fusedProducts(zr.data(), zr.size());
      sigmoidRows(gT, 3 * H, B, 2 * H);
      float* rhT = rhD + t * B * H;
      resetRowsForward(gT + H, 3 * H, hinT, rhT, B, H);
      float* uHT = uHD + t * B * M;
      float* mHT = mHD + t * B * M;
      fusedProduct(wMhHPacked, B, rhT, H, false, uHT, M);  // (r hin) W_mh_h^T
      multiplyRows(xpT + 2 * M, X, uHT, M, mHT, M, B, M);
      fusedProduct(vHPacked, B, mHT, M, true, gT + 2 * H, 3 * H);  // j += m_h V_h^T
      tanhRows(gT + 2 * H, 3 * H, B, H);
      float* h = hsD + t * B * H;
      gruRowsForward(gT, 3 * H, gT + 2 * H, 3 * H, hPrev, h, B, H);
      hPrev = h;
    }
    saveWindow(ctx, TmgruWindowSaved<torch::Tensor>{xp, h0, wMhZr, wMhH, v, mask, hin, uZr, mZr,
                                                    gates, rh, uH, mH, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<TmgruWindowSaved<torch::Tensor>>(ctx);
    const int64_t T = saved.xp.size(0), B = saved.xp.size(1), H = saved.hin.size(2),
                  M = saved.wMhH.size(0);
    const int64_t X = 3 * M + 3 * H;
    const int64_t N = 3 * M;
    const auto options = saved.xp.options();
    const float* maskData = dataOrNull(saved.mask);

    // The gradients flowing into the outputs (undefined where nothing used an output).
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);

    // The input projections' gradient, written in place: [dXm (z r h) | dz | dr | dj] per row,
    // the gates' entries being their pre-activations' gradients.
    auto dXp = torch::empty({T, B, X}, options);
    auto dU = torch::empty({T, B, N}, options);  // kept for the W_mh gradients
    auto dM = torch::empty({B, N}, options);     // the gradients reaching m_z, m_r, m_h
    auto dRh = torch::empty({B, H}, options);    // the gradient reaching r * hin
    auto dHin = torch::empty({B, H}, options);
    auto dhStep = torch::empty({B, H}, options);
    const float* xpD = saved.xp.data_ptr<float>();
    const float* wMhZrD = saved.wMhZr.data_ptr<float>();
    const float* wMhHD = saved.wMhH.data_ptr<float>();
    const float* vZ = saved.v.data_ptr<float>();
    const float* vR = vZ + H * M;
    const float* vH = vR + H * M;
    const float* hinD = saved.hin.data_ptr<float>();
    const float* uZrD = saved.uZr.data_ptr<float>();
    const float* uHD = saved.uH.data_ptr<float>();
    const float* gD = saved.gates.data_ptr<float>();
    const float* hsD = saved.hs.data_ptr<float>();
    const float* h0D = saved.h0.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dXpD = dXp.data_ptr<float>();
    float* dUD = dU.data_ptr<float>();
    float* dMD = dM.data_ptr<float>();
    float* dRhD = dRh.data_ptr<float>();
    float* dHinD = dHin.data_ptr<float>();
    float* dhStepD = dhStep.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wMhHPacked(wMhHD, H, false, H, M, T * B);
    const PackedWeights vRPacked(vR, M, false, M, H, T * B);
    const PackedWeights vHPacked(vH, M, false, M, H, T * B);
    const PackedWeights vZPacked(vZ, M, false, M, H, T * B);
    const PackedWeights wMhZrPacked(wMhZrD, H, false, H, 2 * M, T * B);
    for (int64_t t = T - 1; t >= 0; --t) {
      const float* gT = gD + t * B * 3 * H;
      const float* hinT = hinD + t * B * H;
      const float* hPrev = t > 0 ? hsD + (t - 1) * B * H : h0D;
      const float* xpT = xpD + t * B * X;
      const float* uZrT = uZrD + t * B * 2 * M;
      const float* uHT = uHD + t * B * M;
      float* dXpT = dXpD + t * B * X;
      float* dGT = dXpT + N;  // rows of [dz | dr | dj]
      float* dUT = dUD + t * B * N;
      addOrCopy(dhD, dOutD ? dOutD + t * B * H : nullptr, dhStepD, B * H);
      // dz, dj, and dh_{t-1} = dh (1 - z) through the update.
      gruRowsBackward(gT, 3 * H, gT + 2 * H, 3 * H, hPrev, dhStepD, dGT, X, dGT + 2 * H, X, dhD, B,
                      H);
      // The candidate's path: m_h, then r * hin through W_mh_h.
      // dj V_h, and dz V_z beside it: dz is known once the update's backward has run.
      const std::array<PackedProduct, 2> jz = {
          PackedProduct{&vHPacked, B, dGT + 2 * H, X, false, dMD + 2 * M, N},
          PackedProduct{&vZPacked, B, dGT, X, false, dMD, N}};
      fusedProducts(jz.data(), jz.size());
      multiplyRowsBackward(dMD + 2 * M, N, xpT + 2 * M, X, uHT, M, dXpT + 2 * M, X, dUT + 2 * M, N,
                           B, M);
      fusedProduct(wMhHPacked, B, dUT + 2 * M, N, false, dRhD, H);            // du_h W_mh_h
      resetRowsBackward(gT + H, 3 * H, hinT, dRhD, dGT + H, X, dHinD, B, H);  // dr, r d(r hin)
      // The gates' paths: m_z and m_r, then hin through W_mh_zr.
      fusedProduct(vRPacked, B, dGT + H, X, false, dMD + M, N);  // dr V_r
      multiplyRowsBackward(dMD, N, xpT, X, uZrT, 2 * M, dXpT, X, dUT, N, B, 2 * M);
      fusedProduct(wMhZrPacked, B, dUT, N, true, dHinD, H);  // += du_zr W_mh_zr
      maskedAccumulate(dHinD, maskData, dhD, B * H);
    }
    // The weights' gradients: one product over all T x B rows each (V_z and V_r as one batched
    // product over m_z m_r side by side, V_h over m_h; no copy of the m buffers).
    const auto dURows = dU.view({T * B, N});
    const auto dWmhZr = dURows.narrow(1, 0, 2 * M).t().mm(saved.hin.view({T * B, H}));
    const auto dWmhH = dURows.narrow(1, 2 * M, M).t().mm(saved.rh.view({T * B, H}));
    const auto dGates = dXp.view({T * B, X}).narrow(1, N, 3 * H).view({T * B, 3, H});
    const auto dVzr = dGates.narrow(1, 0, 2).permute({1, 2, 0}).bmm(
        saved.mZr.view({T * B, 2, M}).permute({1, 0, 2}));
    const auto dVh = dGates.select(1, 2).t().mm(saved.mH.view({T * B, M}));
    const auto dV = torch::cat({dVzr, dVh.unsqueeze(0)}, 0);
    return {dXp, dh, dWmhZr, dWmhH, dV, torch::Tensor()};
  }
};

}  // namespace

FusedWindowResult fusedTmgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                   const torch::Tensor& wMhZr, const torch::Tensor& wMhH,
                                   const torch::Tensor& v, const torch::Tensor& mask) {
  const auto out =
      TmgruWindowFunction::apply(xp.contiguous(), h0.contiguous(), wMhZr.contiguous(),
                                 wMhH.contiguous(), v.contiguous(), windowMask(mask, h0));
  return {out[0], out[1], {}};
}

}  // namespace mrnn::engine
