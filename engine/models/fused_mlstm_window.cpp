#include "engine/models/fused_mlstm_window.h"

#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/mlstm_window_layout.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class MlstmWindowFunction : public torch::autograd::Function<MlstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wMh, const torch::Tensor& wM,
                               const torch::Tensor& mask, bool keep) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1), M = wMh.size(0);
    const int64_t X = M + 4 * H;  // a row of xp: [W_mx x | W_x x + b]
    const auto options = xp.options();
    // Everything backward needs, one tensor per kind for the window (no per-step tensors).
    // Without a backward to come (evaluation), one step's slot each, reused: the step's
    // buffers stay in cache and no window-sized block is allocated.
    const int64_t S = keep ? T : 1;
    const auto slot = [keep](int64_t t) { return keep ? t : 0; };
    const auto cSlot = [keep](int64_t t) { return keep ? t : t % 2; };
    // Evaluation's one slot is a window of one step (c: two slots, alternating).
    const auto shape = mlstmWindowShapes({S, B, H, M});
    auto hin = torch::empty(shape.hin, options);
    auto u = torch::empty(shape.u, options);
    auto m = torch::empty(shape.m, options);
    auto gates = torch::empty(shape.gates, options);
    auto c = torch::empty(shape.c, options);
    auto tanhC = torch::empty(shape.tanhC, options);
    auto hs = torch::empty({T, B, H}, options);
    c.select(0, 0).copy_(c0);
    const float* maskData = dataOrNull(mask);
    // The loop runs on raw pointers: a tensor view per step costs more than the element-wise
    // work at small sizes. All tensors here are contiguous.
    const float* xpD = xp.data_ptr<float>();
    const float* wMhD = wMh.data_ptr<float>();
    const float* wMD = wM.data_ptr<float>();
    float* hinD = hin.data_ptr<float>();
    float* uD = u.data_ptr<float>();
    float* mD = m.data_ptr<float>();
    float* gD = gates.data_ptr<float>();
    float* cD = c.data_ptr<float>();
    float* tcD = tanhC.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const auto h0c = h0.contiguous();
    const float* hPrev = h0c.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wMhPacked(wMhD, H, true, M, H, T * B);
    const PackedWeights wMPacked(wMD, M, true, 4 * H, M, T * B);
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + slot(t) * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* uT = uD + slot(t) * B * M;
      fusedProduct(wMhPacked, B, hinT, H, false, uT, M);  // u = h W_mh^T
      const float* xpT = xpD + t * B * X;
      float* mT = mD + slot(t) * B * M;
      float* gT = gD + slot(t) * B * 4 * H;
      multiplyRows(xpT, X, uT, M, mT, M, B, M);
      copyRows(xpT + M, X, gT, 4 * H, B, 4 * H);
      fusedProduct(wMPacked, B, mT, M, true, gT, 4 * H);  // gates += m W_m^T
      float* h = hsD + t * B * H;
      lstmRowsForward(gT, 4 * H, cD + cSlot(t) * B * H, cD + cSlot(t + 1) * B * H,
                      tcD + slot(t) * B * H, h, B, H, H);
      hPrev = h;
    }
    if (keep) {
      saveWindow(ctx,
                 MlstmWindowSaved<torch::Tensor>{xp, wMh, wM, mask, hin, u, m, gates, c, tanhC});
    }
    auto hT = hs.select(0, T - 1).clone();
    auto cT = c.select(0, cSlot(T)).clone();
    return {hs, hT, cT};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<MlstmWindowSaved<torch::Tensor>>(ctx);
    const int64_t T = saved.xp.size(0), B = saved.xp.size(1), H = saved.hin.size(2),
                  M = saved.wMh.size(0);
    const int64_t X = M + 4 * H;
    const auto options = saved.xp.options();
    const float* maskData = dataOrNull(saved.mask);

    // The gradients flowing into the outputs (undefined where nothing used an output).
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);

    // The input projections' gradient, written in place: [dXm | dGates] per row, where
    // dGates is the gradient of the gates' pre-activations (no concatenation afterwards).
    auto dXp = torch::empty({T, B, X}, options);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto dHin = torch::empty({B, H}, options);
    auto dhStep = torch::empty({B, H}, options);  // dh plus the loss's own gradient at step t
    const float* xpD = saved.xp.data_ptr<float>();
    const float* wMhD = saved.wMh.data_ptr<float>();
    const float* wMD = saved.wM.data_ptr<float>();
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
    float* dhData = dh.data_ptr<float>();
    float* dcData = dc.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wMPacked(wMD, M, false, M, 4 * H, T * B);
    const PackedWeights wMhPacked(wMhD, H, false, H, M, T * B);
    for (int64_t t = T - 1; t >= 0; --t) {
      const float* dOut = dOutD ? dOutD + t * B * H : nullptr;
      float* dXpT = dXpD + t * B * X;  // rows of [dXm | dGates]
      addOrCopy(dhData, dOut, dhStepD, B * H);
      lstmRowsBackward(gD + t * B * 4 * H, 4 * H, cD + t * B * H, tcD + t * B * H, dhStepD, dcData,
                       dXpT + M, X, B, H, H);
      fusedProduct(wMPacked, B, dXpT + M, X, false, dMD, M);  // dm = dG W_m
      const float* xpT = xpD + t * B * X;
      const float* uT = uD + t * B * M;
      float* dUT = dUD + t * B * M;
      multiplyRowsBackward(dMD, M, xpT, X, uT, M, dXpT, X, dUT, M, B, M);
      fusedProduct(wMhPacked, B, dUT, M, false, dHinD, H);  // dh_in = du W_mh
      maskedCopy(dHinD, maskData, dhData, B * H);
    }
    // The weights' gradients: one product over all T x B rows each.
    const auto dWm = dXp.view({T * B, X}).narrow(1, M, 4 * H).t().mm(saved.m.view({T * B, M}));
    const auto dWmh = dU.view({T * B, M}).t().mm(saved.hin.view({T * B, H}));
    return {dXp, dh, dc, dWmh, dWm, torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

FusedWindowResult fusedMlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                   const torch::Tensor& c0, const torch::Tensor& wMh,
                                   const torch::Tensor& wM, const torch::Tensor& mask) {
  const bool keep = windowNeedsBackward({xp, h0, c0, wMh, wM});
  const auto out =
      MlstmWindowFunction::apply(xp.contiguous(), h0.contiguous(), c0.contiguous(),
                                 wMh.contiguous(), wM.contiguous(), windowMask(mask, h0), keep);
  return {out[0], out[1], out[2]};
}

}  // namespace mrnn::engine
