#include "engine/models/fused_mogrifier_window.h"

#include <torch/torch.h>

#include <algorithm>
#include <array>
#include <vector>

#include "engine/kernels/vector_kernels.h"
#include "engine/models/fused_window_kernels.h"
#include "engine/windows/window_saved.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The window's sizes and layout (mogrifier_window_layout.h) and its round matrices.
struct Window : MogrifierWindowLayout, MogrifierRoundMatrices {};

Window makeWindow(const torch::Tensor& xp, const torch::Tensor& wH, at::TensorList rounds,
                  bool lowRank, bool zigzag) {
  Window w;
  static_cast<MogrifierWindowLayout&>(w) = mogrifierWindowLayout(xp, wH, rounds, lowRank, zigzag);
  static_cast<MogrifierRoundMatrices&>(w) = mogrifierRoundMatrices(rounds, lowRank);
  return w;
}

// The round matrices packed once for the window's T steps (PackedWeights): for the forward's
// products src M^T (`forward`) or the backward's dPre M. Round i at i - 1, as in the Window.
struct PackedRounds {
  std::vector<PackedWeights> full, left, right;
};

PackedRounds packRounds(const Window& w, bool forward) {
  PackedRounds packed;
  const int64_t k = w.rank, rowsToCome = w.T * w.B;
  for (int64_t i = 1; i <= w.rounds; ++i) {
    const int64_t rows = w.rows(i), cols = w.cols(i);
    if (k == 0) {  // M [rows, cols]
      packed.full.emplace_back(w.full[i - 1], cols, forward, forward ? rows : cols,
                               forward ? cols : rows, rowsToCome);
      continue;
    }
    // left [rows, k], right [k, cols]
    packed.left.emplace_back(w.left[i - 1], k, forward, forward ? rows : k, forward ? k : rows,
                             rowsToCome);
    packed.right.emplace_back(w.right[i - 1], cols, forward, forward ? k : cols, forward ? cols : k,
                              rowsToCome);
  }
  return packed;
}

// pre [B, rows] = src [B, cols] M^T; low rank through z [B, k] = src right^T, kept for the
// left factor's gradient.
void roundForward(const Window& w, const PackedRounds& m, int64_t i, const float* src, float* z,
                  float* pre) {
  const int64_t rows = w.rows(i), cols = w.cols(i), k = w.rank;
  if (k == 0) {
    fusedProduct(m.full[i - 1], w.B, src, cols, false, pre, rows);
    return;
  }
  fusedProduct(m.right[i - 1], w.B, src, cols, false, z, k);
  fusedProduct(m.left[i - 1], w.B, z, k, false, pre, rows);
}

// dSrc [B, cols] += dPre [B, rows] M; low rank through dz = dPre left, kept for the right
// factor's gradient.
void roundBackward(const Window& w, const PackedRounds& m, int64_t i, const float* dPre, float* dz,
                   float* dSrc) {
  const int64_t rows = w.rows(i), cols = w.cols(i), k = w.rank;
  if (k == 0) {
    fusedProduct(m.full[i - 1], w.B, dPre, rows, true, dSrc, cols);
    return;
  }
  fusedProduct(m.left[i - 1], w.B, dPre, rows, false, dz, k);
  fusedProduct(m.right[i - 1], w.B, dz, k, true, dSrc, cols);
}

class MogrifierWindowFunction : public torch::autograd::Function<MogrifierWindowFunction> {
 public:
  // rounds is a TensorList so that autograd counts each round tensor as an input of its own
  // (a std::vector would be taken for a non-tensor argument) and backward returns one
  // gradient per round tensor in this order.
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wX, const torch::Tensor& b,
                               const torch::Tensor& wH, const torch::Tensor& mask,
                               at::TensorList rounds, bool lowRank, bool zigzag) {
    const Window w = makeWindow(xp, wH, rounds, lowRank, zigzag);
    const int64_t T = w.T, B = w.B, I = w.I, H = w.H, G = 4 * H;
    const auto options = xp.options();
    // Everything backward needs, one tensor per kind for the window (no per-step tensors).
    auto xR = torch::empty({w.oddRounds(), T, B, I}, options);             // x^1, x^3, ...
    auto hR = torch::empty({w.evenRounds() + 1, T, B, H}, options);        // h^0 = h_in, h^2, ...
    auto sX = torch::empty({w.oddRounds(), T, B, I}, options);             // sigmoid(Q^i src)
    auto sH = torch::empty({w.evenRounds(), T, B, H}, options);            // sigmoid(R^i src)
    auto z = w.rank > 0 ? torch::empty({w.rounds, T, B, w.rank}, options)  // src right^T
                        : torch::empty({0}, options);
    auto gates = torch::empty({T, B, G}, options);  // i f o j, activated
    auto c = torch::empty({T + 1, B, H}, options);  // c_0 .. c_T
    auto tanhC = torch::empty({T, B, H}, options);
    auto hs = torch::empty({T, B, H}, options);
    c.select(0, 0).copy_(c0);
    const float* maskD = dataOrNull(mask);
    const float* xpD = xp.data_ptr<float>();
    const float* wXD = wX.data_ptr<float>();
    const float* bD = b.data_ptr<float>();
    const float* wHD = wH.data_ptr<float>();
    float* xRD = xR.data_ptr<float>();
    float* hRD = hR.data_ptr<float>();
    float* sXD = sX.data_ptr<float>();
    float* sHD = sH.data_ptr<float>();
    float* zD = z.data_ptr<float>();
    float* gD = gates.data_ptr<float>();
    float* cD = c.data_ptr<float>();
    float* tcD = tanhC.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    const PackedRounds roundsPacked = packRounds(w, true);
    const PackedWeights wXPacked(wXD, I, true, G, I, T * B);
    const PackedWeights wHPacked(wHD, H, true, G, H, T * B);
    for (int64_t t = 0; t < T; ++t) {
      const float* x0 = xpD + t * B * I;
      float* hin = w.at(hRD, 0, t, H);
      maskedCopy(hPrev, maskD, hin, B * H);
      const float* xCur = x0;  // the latest x^i and h^i
      const float* hCur = hin;
      for (int64_t i = 1; i <= w.rounds; ++i) {
        const bool odd = Window::odd(i);
        const int64_t n = B * w.rows(i);
        const float* src = odd ? (zigzag ? hCur : hin) : (zigzag ? xCur : x0);
        float* s = odd ? w.at(sXD, Window::slot(i), t, I) : w.at(sHD, Window::slot(i), t, H);
        roundForward(w, roundsPacked, i, src, w.rank > 0 ? w.at(zD, i - 1, t, w.rank) : nullptr, s);
        sigmoidInPlace(s, n);
        float* out = odd ? w.at(xRD, Window::slot(i), t, I) : w.at(hRD, i / 2, t, H);
        const float* prev = odd ? xCur : hCur;  // x^{i-2} or h^{i-2}
        for (int64_t k = 0; k < n; ++k) out[k] = 2.0f * s[k] * prev[k];
        (odd ? xCur : hCur) = out;
      }
      float* gT = gD + t * B * G;
      copyRows(bD, 0, gT, G, B, G);                     // the bias in every row
      fusedProduct(wXPacked, B, xCur, I, true, gT, G);  // += x W_x^T
      fusedProduct(wHPacked, B, hCur, H, true, gT, G);  // += h W_h^T
      float* h = hsD + t * B * H;
      lstmRowsForward(gT, G, cD + t * B * H, cD + (t + 1) * B * H, tcD + t * B * H, h, B, H, H);
      hPrev = h;
    }
    MogrifierWindowSaved{xp, wX,    wH, mask,  xR,           hR,      sX,    sH,
                         z,  gates, c,  tanhC, rounds.vec(), lowRank, zigzag}
        .saveTo(ctx);
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = MogrifierWindowSaved::from(ctx);
    const auto& xp = saved.x;
    const auto& wX = saved.wX;
    const auto& wH = saved.wH;
    const auto& mask = saved.mask;
    const auto& xR = saved.xR;
    const auto& hR = saved.hR;
    const auto& sX = saved.sX;
    const auto& sH = saved.sH;
    const auto& z = saved.z;
    const auto& gates = saved.gates;
    const auto& c = saved.c;
    const auto& tanhC = saved.tanhC;
    const auto& rounds = saved.rounds;
    const bool zigzag = saved.zigzag;
    const Window w = makeWindow(xp, wH, rounds, saved.lowRank, zigzag);
    const int64_t T = w.T, B = w.B, I = w.I, H = w.H, G = 4 * H, K = w.rank;
    const auto options = xp.options();
    const float* maskD = dataOrNull(mask);

    // The gradients flowing into the outputs (undefined where nothing used an output).
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);

    // Kept for the weights' gradients at the end, one tensor per kind: the gates' and the
    // rounds' pre-activation gradients, and dz = dPre left (low rank).
    auto dG = torch::empty({T, B, G}, options);
    auto dPreX = torch::empty({w.oddRounds(), T, B, I}, options);
    auto dPreH = torch::empty({w.evenRounds(), T, B, H}, options);
    auto dZ = K > 0 ? torch::empty({w.rounds, T, B, K}, options) : torch::empty({0}, options);
    auto dXp = torch::empty({T, B, I}, options);  // dx_t, built in place through the rounds
    auto dHCur = torch::empty({B, H}, options);   // the gradient of the latest h^i
    auto dhStep = torch::empty({B, H}, options);  // dh plus the loss's own gradient at step t
    // Without zigzag every Q^i reads h_in and every R^i the original x: their gradients
    // collect here and join the chains' at the end of the step.
    auto dSrcX = torch::zeros({B, I}, options);
    auto dSrcH = torch::zeros({B, H}, options);
    const float* xpD = xp.data_ptr<float>();
    const float* wXD = wX.data_ptr<float>();
    const float* wHD = wH.data_ptr<float>();
    const float* xRD = xR.data_ptr<float>();
    const float* hRD = hR.data_ptr<float>();
    const float* sXD = sX.data_ptr<float>();
    const float* sHD = sH.data_ptr<float>();
    const float* gD = gates.data_ptr<float>();
    const float* cD = c.data_ptr<float>();
    const float* tcD = tanhC.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dGD = dG.data_ptr<float>();
    float* dPreXD = dPreX.data_ptr<float>();
    float* dPreHD = dPreH.data_ptr<float>();
    float* dZD = dZ.data_ptr<float>();
    float* dXpD = dXp.data_ptr<float>();
    float* dHD = dHCur.data_ptr<float>();
    float* dhStepD = dhStep.data_ptr<float>();
    float* dSrcXD = dSrcX.data_ptr<float>();
    float* dSrcHD = dSrcH.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    float* dcD = dc.data_ptr<float>();
    const bool separateSources = !zigzag && w.rounds > 0;
    const PackedRounds roundsPacked = packRounds(w, false);
    const PackedWeights wXPacked(wXD, I, false, I, G, T * B);
    const PackedWeights wHPacked(wHD, H, false, H, G, T * B);
    for (int64_t t = T - 1; t >= 0; --t) {
      const float* dOut = dOutD ? dOutD + t * B * H : nullptr;
      addOrCopy(dhD, dOut, dhStepD, B * H);
      float* dGT = dGD + t * B * G;
      lstmRowsBackward(gD + t * B * G, G, cD + t * B * H, tcD + t * B * H, dhStepD, dcD, dGT, G, B,
                       H, H);
      float* dX = dXpD + t * B * I;  // the gradient of the latest x^i
      const std::array<PackedProduct, 2> inputs = {
          PackedProduct{&wXPacked, B, dGT, G, false, dX, I},    // dG W_x
          PackedProduct{&wHPacked, B, dGT, G, false, dHD, H}};  // dG W_h
      fusedProducts(inputs.data(), inputs.size());
      if (separateSources) {
        std::fill(dSrcXD, dSrcXD + B * I, 0.0f);
        std::fill(dSrcHD, dSrcHD + B * H, 0.0f);
      }
      // The rounds last to first: round i's result is read only by later rounds and the
      // LSTM, so its gradient is complete when round i comes.
      const float* x0 = xpD + t * B * I;
      for (int64_t i = w.rounds; i >= 1; --i) {
        const bool odd = Window::odd(i);
        const int64_t n = B * w.rows(i), s = Window::slot(i);
        const float* sig = odd ? w.at(sXD, s, t, I) : w.at(sHD, s, t, H);
        const float* prev = odd ? (i > 1 ? w.at(xRD, s - 1, t, I) : x0)  // x^{i-2}
                                : w.at(hRD, i / 2 - 1, t, H);            // h^{i-2}
        float* dCur = odd ? dX : dHD;  // in: d(x^i) or d(h^i); out: d(x^{i-2}) or d(h^{i-2})
        float* dPre = odd ? w.at(dPreXD, s, t, I) : w.at(dPreHD, s, t, H);
        for (int64_t k = 0; k < n; ++k) {
          const float g = 2.0f * dCur[k];
          dPre[k] = g * prev[k] * sig[k] * (1.0f - sig[k]);
          dCur[k] = g * sig[k];
        }
        // The source's gradient: h^{i-1} or x^{i-1} is the other chain's current element.
        float* dSrc = odd ? (zigzag ? dHD : dSrcHD) : (zigzag ? dX : dSrcXD);
        roundBackward(w, roundsPacked, i, dPre, K > 0 ? w.at(dZD, i - 1, t, K) : nullptr, dSrc);
      }
      if (separateSources) {
        for (int64_t k = 0; k < B * I; ++k) dX[k] += dSrcXD[k];
        for (int64_t k = 0; k < B * H; ++k) dHD[k] += dSrcHD[k];
      }
      maskedCopy(dHD, maskD, dhD, B * H);  // h_in = mask * h_{t-1}
    }

    // The weights' gradients: one product over all T x B rows each.
    const int64_t rowsTB = T * B;
    const auto dGm = dG.view({rowsTB, G});
    const auto xIn = xp.view({rowsTB, I});
    const auto xFin = w.rounds >= 1 ? xR.select(0, w.oddRounds() - 1).view({rowsTB, I}) : xIn;
    const auto hFin = hR.select(0, w.evenRounds()).view({rowsTB, H});
    variable_list out = {
        dXp, dh, dc, dGm.t().mm(xFin), dGm.sum(0), dGm.t().mm(hFin), torch::Tensor()};  // the mask
    for (int64_t i = 1; i <= w.rounds; ++i) {
      const bool odd = Window::odd(i);
      const int64_t s = Window::slot(i);
      const auto src = odd ? hR.select(0, zigzag ? (i - 1) / 2 : 0).view({rowsTB, H})
                           : (zigzag ? xR.select(0, (i - 2) / 2).view({rowsTB, I}) : xIn);
      const auto dPre =
          odd ? dPreX.select(0, s).view({rowsTB, I}) : dPreH.select(0, s).view({rowsTB, H});
      if (K == 0) {
        out.push_back(dPre.t().mm(src));
      } else {
        out.push_back(dPre.t().mm(z.select(0, i - 1).view({rowsTB, K})));  // left
        out.push_back(dZ.select(0, i - 1).view({rowsTB, K}).t().mm(src));  // right
      }
    }
    out.emplace_back();  // lowRank
    out.emplace_back();  // zigzag
    return out;
  }
};

}  // namespace

MogrifierWindowLayout mogrifierWindowLayout(const torch::Tensor& x, const torch::Tensor& wH,
                                            at::TensorList rounds, bool lowRank, bool zigzag) {
  MogrifierWindowLayout w;
  w.T = x.size(0);
  w.B = x.size(1);
  w.I = x.size(2);
  w.H = wH.size(1);
  w.zigzag = zigzag;
  w.rounds = static_cast<int64_t>(rounds.size()) / (lowRank ? 2 : 1);
  w.rank = lowRank && w.rounds > 0 ? rounds[0].size(1) : 0;
  return w;
}

MogrifierRoundMatrices mogrifierRoundMatrices(at::TensorList rounds, bool lowRank) {
  MogrifierRoundMatrices matrices;
  for (size_t k = 0; k < rounds.size(); ++k) {
    const float* data = rounds[k].data_ptr<float>();
    if (!lowRank) {
      matrices.full.push_back(data);
    } else {
      (k % 2 == 0 ? matrices.left : matrices.right).push_back(data);  // left, right, left, ...
    }
  }
  return matrices;
}

FusedWindowResult fusedMogrifierWindow(const torch::Tensor& x, const torch::Tensor& h0,
                                       const torch::Tensor& c0, const torch::Tensor& wX,
                                       const torch::Tensor& b, const torch::Tensor& wH,
                                       const std::vector<torch::Tensor>& rounds, bool lowRank,
                                       bool zigzag, const torch::Tensor& mask) {
  std::vector<torch::Tensor> contiguous;
  contiguous.reserve(rounds.size());
  for (const auto& round : rounds) contiguous.push_back(round.contiguous());
  const auto out = MogrifierWindowFunction::apply(
      x.contiguous(), h0.contiguous(), c0.contiguous(), wX.contiguous(), b.contiguous(),
      wH.contiguous(), windowMask(mask, h0), at::TensorList(contiguous), lowRank, zigzag);
  return {out[0], out[1], out[2]};
}

void MogrifierWindowSaved::saveTo(torch::autograd::AutogradContext* ctx) const {
  torch::autograd::variable_list saved;
  forEachSaved(*this, [&](const torch::Tensor& t) { saved.push_back(t); });
  saved.insert(saved.end(), rounds.begin(), rounds.end());
  ctx->save_for_backward(saved);
  ctx->saved_data["lowRank"] = lowRank;
  ctx->saved_data["zigzag"] = zigzag;
}

MogrifierWindowSaved MogrifierWindowSaved::from(torch::autograd::AutogradContext* ctx) {
  const auto saved = ctx->get_saved_variables();
  MogrifierWindowSaved s;
  size_t i = 0;
  forEachSaved(s, [&](torch::Tensor& t) { t = saved.at(i++); });
  s.rounds.assign(saved.begin() + static_cast<std::ptrdiff_t>(i), saved.end());
  s.lowRank = ctx->saved_data["lowRank"].toBool();
  s.zigzag = ctx->saved_data["zigzag"].toBool();
  return s;
}

}  // namespace mrnn::engine
