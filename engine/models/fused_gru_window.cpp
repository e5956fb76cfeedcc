#include "engine/models/fused_gru_window.h"

#include <torch/torch.h>

#include <algorithm>

#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/gru_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class GruWindowFunction : public torch::autograd::Function<GruWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& wZr,
                               const torch::Tensor& wH, const torch::Tensor& mask) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1);
    const int64_t X = 3 * H;  // a row of xp, and of gates: [z | r | j]
    const auto options = xp.options();
    // Everything backward needs, one tensor per kind for the window (no per-step tensors).
    const auto shape = gruWindowShapes({T, B, H});
    auto hin = torch::empty(shape.hin, options);
    auto gates = torch::empty(shape.gates, options);
    auto rh = torch::empty(shape.rh, options);
    auto hs = torch::empty(shape.hs, options);
    const float* maskData = dataOrNull(mask);
    const float* xpD = xp.data_ptr<float>();
    const float* wZrD = wZr.data_ptr<float>();
    const float* wHD = wH.data_ptr<float>();
    float* hinD = hin.data_ptr<float>();
    float* gD = gates.data_ptr<float>();
    float* rhD = rh.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wZrPacked(wZrD, H, true, 2 * H, H, T * B);
    const PackedWeights wHPacked(wHD, H, true, H, H, T * B);
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* gT = gD + t * B * X;
      std::copy(xpD + t * B * X, xpD + (t + 1) * B * X, gT);
      fusedProduct(wZrPacked, B, hinT, H, true, gT, X);  // [z r] += hin W_zr^T
      sigmoidRows(gT, X, B, 2 * H);
      float* rhT = rhD + t * B * H;
      resetRowsForward(gT + H, X, hinT, rhT, B, H);
      fusedProduct(wHPacked, B, rhT, H, true, gT + 2 * H, X);  // j += (r hin) W_h^T
      tanhRows(gT + 2 * H, X, B, H);
      float* h = hsD + t * B * H;
      gruRowsForward(gT, X, gT + 2 * H, X, hPrev, h, B, H);
      hPrev = h;
    }
    saveWindow(ctx, GruWindowSaved<torch::Tensor>{h0, wZr, wH, mask, hin, gates, rh, hs});
    return {hs, hs.select(0, T - 1).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<GruWindowSaved<torch::Tensor>>(ctx);
    const int64_t T = saved.hin.size(0), B = saved.hin.size(1), H = saved.hin.size(2);
    const int64_t X = 3 * H;
    const auto options = saved.hin.options();
    const float* maskData = dataOrNull(saved.mask);

    // The gradients flowing into the outputs (undefined where nothing used an output).
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);

    // The input projections' gradient, written in place: the pre-activations' gradients
    // [dz | dr | dj] per row.
    auto dXp = torch::empty({T, B, X}, options);
    auto dRh = torch::empty({B, H}, options);   // the gradient reaching r * hin
    auto dHin = torch::empty({B, H}, options);  // the gradient reaching hin
    auto dhStep = torch::empty({B, H}, options);
    const float* wZrD = saved.wZr.data_ptr<float>();
    const float* wHD = saved.wH.data_ptr<float>();
    const float* hinD = saved.hin.data_ptr<float>();
    const float* gD = saved.gates.data_ptr<float>();
    const float* hsD = saved.hs.data_ptr<float>();
    const float* h0D = saved.h0.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dXpD = dXp.data_ptr<float>();
    float* dRhD = dRh.data_ptr<float>();
    float* dHinD = dHin.data_ptr<float>();
    float* dhStepD = dhStep.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    const PackedWeights wHPacked(wHD, H, false, H, H, T * B);
    const PackedWeights wZrPacked(wZrD, H, false, H, 2 * H, T * B);
    for (int64_t t = T - 1; t >= 0; --t) {
      const float* gT = gD + t * B * X;
      const float* hinT = hinD + t * B * H;
      const float* hPrev = t > 0 ? hsD + (t - 1) * B * H : h0D;
      float* dXpT = dXpD + t * B * X;
      addOrCopy(dhD, dOutD ? dOutD + t * B * H : nullptr, dhStepD, B * H);
      // dz, dj, and dh_{t-1} = dh (1 - z) through the update.
      gruRowsBackward(gT, X, gT + 2 * H, X, hPrev, dhStepD, dXpT, X, dXpT + 2 * H, X, dhD, B, H);
      fusedProduct(wHPacked, B, dXpT + 2 * H, X, false, dRhD, H);          // d(r hin) = dj W_h
      resetRowsBackward(gT + H, X, hinT, dRhD, dXpT + H, X, dHinD, B, H);  // dr, r d(r hin)
      fusedProduct(wZrPacked, B, dXpT, X, true, dHinD, H);                 // += [dz dr] W_zr
      maskedAccumulate(dHinD, maskData, dhD, B * H);
    }
    // The weights' gradients: one product over all T x B rows each.
    const auto dXpRows = dXp.view({T * B, X});
    const auto dWzr = dXpRows.narrow(1, 0, 2 * H).t().mm(saved.hin.view({T * B, H}));
    const auto dWh = dXpRows.narrow(1, 2 * H, H).t().mm(saved.rh.view({T * B, H}));
    return {dXp, dh, dWzr, dWh, torch::Tensor()};
  }
};

}  // namespace

FusedWindowResult fusedGruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                 const torch::Tensor& wZr, const torch::Tensor& wH,
                                 const torch::Tensor& mask) {
  const auto out = GruWindowFunction::apply(xp.contiguous(), h0.contiguous(), wZr.contiguous(),
                                            wH.contiguous(), windowMask(mask, h0));
  return {out[0], out[1], {}};
}

}  // namespace mrnn::engine
