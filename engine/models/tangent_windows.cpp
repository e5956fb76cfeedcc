#include "engine/models/tangent_windows.h"

#include <torch/torch.h>

#include <vector>

#include "engine/models/fused_mrnn_window.h"
#include "engine/models/fused_rnn_window.h"
#include "engine/models/fused_window_kernels.h"

namespace mrnn::engine {
namespace {

// A dual tensor's parts at `level`; the tangent undefined where it has none (zero).
struct Dual {
  torch::Tensor primal;
  torch::Tensor tangent;
};

Dual split(const torch::Tensor& t, uint64_t level) {
  if (!t.defined()) return {};
  return {t._fw_primal(level), t._fw_grad(level)};
}

// Whether a state mask was given (an empty tensor, as the fused windows take it, is none).
bool hasMask(const torch::Tensor& mask) {
  return mask.defined() && mask.numel() > 0;
}

// h_{t-1} for every step as it enters the recurrent matrices: [h0, h_1 .. h_{T-1}] ⊙ mask.
torch::Tensor enteringStates(const torch::Tensor& hs, const torch::Tensor& h0,
                             const torch::Tensor& mask) {
  const int64_t T = hs.size(0);
  const auto previous = torch::cat({h0.unsqueeze(0), hs.narrow(0, 0, T - 1)});
  return hasMask(mask) ? previous * mask : previous;
}

// rows [T, B, K] times matrixᵀ, added into out [T, B, N].
void addProduct(torch::Tensor& out, const torch::Tensor& rows, const torch::Tensor& matrix) {
  const int64_t T = rows.size(0), B = rows.size(1);
  out.view({T * B, out.size(2)}).addmm_(rows.reshape({T * B, rows.size(2)}), matrix.t());
}

torch::Tensor maskedState(const torch::Tensor& h, const torch::Tensor& mask) {
  return hasMask(mask) ? h * mask : h;
}

// The known primal where it fits this window, else undefined.
torch::Tensor fitting(const torch::Tensor& known, const torch::Tensor& xp, int64_t H) {
  const bool fits = known.defined() && known.dim() == 3 && known.size(0) == xp.size(0) &&
                    known.size(1) == xp.size(1) && known.size(2) == H &&
                    known.scalar_type() == xp.scalar_type() && known.device() == xp.device();
  return fits ? known.detach() : torch::Tensor();
}

FusedWindowResult dualResult(const torch::Tensor& hs, const torch::Tensor& dhs, uint64_t level) {
  const auto dual = torch::_make_dual(hs, dhs, static_cast<int64_t>(level));
  return {dual, dual.select(0, hs.size(0) - 1), {}};
}

// Whether the tangent's recurrence runs on raw floats (the fused windows' kernels): CPU
// float32, as the fused windows.
bool onRawFloats(const torch::Tensor& hs) {
  return hs.device().is_cpu() && hs.scalar_type() == torch::kFloat32;
}

// The state mask as [B, H] contiguous rows, or undefined for none.
torch::Tensor contiguousMask(const torch::Tensor& mask, const torch::Tensor& hs) {
  if (!hasMask(mask)) return {};
  return mask.expand({hs.size(1), hs.size(2)}).contiguous();
}

torch::Tensor contiguousTangent(const torch::Tensor& t) {
  return t.defined() ? t.contiguous() : t;
}

// The RNN tangent's recurrence on raw floats: pre [T, B, H] holds each step's outside part and
// is overwritten; dhs [T, B, H] receives the tangents.
void rnnTangentSteps(torch::Tensor& pre, const torch::Tensor& slope, const torch::Tensor& w,
                     const torch::Tensor& mask, const torch::Tensor& dh0, torch::Tensor& dhs) {
  const int64_t T = pre.size(0), B = pre.size(1), H = pre.size(2);
  const PackedWeights wPacked(w.data_ptr<float>(), H, true, H, H, T * B);
  const float* maskD = dataOrNull(mask);
  std::vector<float> dhin(static_cast<size_t>(B * H));
  const float* dh = dataOrNull(dh0);
  for (int64_t t = 0; t < T; ++t) {
    float* a = pre.data_ptr<float>() + t * B * H;
    if (dh) {
      maskedCopy(dh, maskD, dhin.data(), B * H);
      fusedProduct(wPacked, B, dhin.data(), H, true, a, H);
    }
    float* out = dhs.data_ptr<float>() + t * B * H;
    multiplyRows(slope.data_ptr<float>() + t * B * H, H, a, H, out, H, B, H);
    dh = out;
  }
}

// The mRNN tangent's recurrence on raw floats: dmOutside [T, B, M] and pre [T, B, H] hold each
// step's outside parts and are overwritten; xp [T, B, M + H]; dhs [T, B, H] receives them.
void mrnnTangentSteps(torch::Tensor& dmOutside, torch::Tensor& pre, const torch::Tensor& xp,
                      const torch::Tensor& slope, const torch::Tensor& wMh,
                      const torch::Tensor& wHm, const torch::Tensor& mask, const torch::Tensor& dh0,
                      torch::Tensor& dhs) {
  const int64_t T = pre.size(0), B = pre.size(1), H = pre.size(2), M = wMh.size(0);
  const int64_t X = M + H;
  const PackedWeights wMhPacked(wMh.data_ptr<float>(), H, true, M, H, T * B);
  const PackedWeights wHmPacked(wHm.data_ptr<float>(), M, true, H, M, T * B);
  const float* maskD = dataOrNull(mask);
  std::vector<float> dhin(static_cast<size_t>(B * H)), du(static_cast<size_t>(B * M)),
      xmDu(static_cast<size_t>(B * M));
  const float* dh = dataOrNull(dh0);
  for (int64_t t = 0; t < T; ++t) {
    float* dm = dmOutside.data_ptr<float>() + t * B * M;
    if (dh) {
      maskedCopy(dh, maskD, dhin.data(), B * H);
      fusedProduct(wMhPacked, B, dhin.data(), H, false, du.data(), M);  // du = dhin W_mh^T
      multiplyRows(xp.data_ptr<float>() + t * B * X, X, du.data(), M, xmDu.data(), M, B, M);
      addOrCopy(dm, xmDu.data(), dm, B * M);  // dm += (W_mx x) * du
    }
    float* a = pre.data_ptr<float>() + t * B * H;
    fusedProduct(wHmPacked, B, dm, M, true, a, H);  // a += dm W_hm^T
    float* out = dhs.data_ptr<float>() + t * B * H;
    multiplyRows(slope.data_ptr<float>() + t * B * H, H, a, H, out, H, B, H);
    dh = out;
  }
}

torch::Tensor rnnPrimal(const torch::Tensor& xp, const torch::Tensor& h0, const torch::Tensor& w,
                        const torch::Tensor& mask) {
  if (fusedWindowApplies({xp, w})) return fusedRnnWindow(xp, h0, w, mask).hs;
  auto hs = torch::empty({xp.size(0), xp.size(1), w.size(0)}, xp.options());
  torch::Tensor h = h0;
  for (int64_t t = 0; t < xp.size(0); ++t) {
    auto out = hs.select(0, t);
    torch::addmm_out(out, xp.select(0, t), maskedState(h, mask), w.t());
    out.tanh_();
    h = out;
  }
  return hs;
}

torch::Tensor mrnnPrimal(const torch::Tensor& xp, const torch::Tensor& h0, const torch::Tensor& wMh,
                         const torch::Tensor& wHm, const torch::Tensor& mask) {
  if (fusedWindowApplies({xp, wMh, wHm})) return fusedMrnnWindow(xp, h0, wMh, wHm, mask).hs;
  const int64_t M = wMh.size(0), H = wHm.size(0);
  auto hs = torch::empty({xp.size(0), xp.size(1), H}, xp.options());
  torch::Tensor h = h0;
  for (int64_t t = 0; t < xp.size(0); ++t) {
    const auto step = xp.select(0, t);
    const auto m = step.narrow(1, 0, M) * torch::mm(maskedState(h, mask), wMh.t());
    auto out = hs.select(0, t);
    torch::addmm_out(out, step.narrow(1, M, H), m, wHm.t());
    out.tanh_();
    h = out;
  }
  return hs;
}

}  // namespace

FusedWindowResult rnnTangentWindow(const torch::Tensor& xpDual, const torch::Tensor& h0Dual,
                                   const torch::Tensor& wDual, const torch::Tensor& mask,
                                   uint64_t level, const torch::Tensor& known) {
  const auto xp = split(xpDual, level), h0 = split(h0Dual, level), w = split(wDual, level);
  auto hs = fitting(known, xp.primal, w.primal.size(0));
  if (!hs.defined()) hs = rnnPrimal(xp.primal, h0.primal, w.primal, mask);
  const int64_t T = hs.size(0);
  // What each step's pre-activation tangent gets from outside the recurrence.
  auto pre =
      xp.tangent.defined() ? xp.tangent.clone(at::MemoryFormat::Contiguous) : torch::zeros_like(hs);
  if (w.tangent.defined()) addProduct(pre, enteringStates(hs, h0.primal, mask), w.tangent);
  const auto slope = 1.0 - hs * hs;
  auto dhs = torch::empty_like(hs);
  if (onRawFloats(hs)) {
    rnnTangentSteps(pre, slope, w.primal.contiguous(), contiguousMask(mask, hs),
                    contiguousTangent(h0.tangent), dhs);
    return dualResult(hs, dhs, level);
  }
  const auto wT = w.primal.t();
  const bool masked = hasMask(mask);
  auto dhin = masked ? torch::empty_like(hs.select(0, 0)) : torch::Tensor();
  torch::Tensor dh = h0.tangent;
  // Per step: one product and one or two element-wise passes, into buffers made once.
  for (int64_t t = 0; t < T; ++t) {
    auto a = pre.select(0, t);
    if (dh.defined()) a.addmm_(masked ? torch::mul_out(dhin, dh, mask) : dh, wT);
    auto out = dhs.select(0, t);
    torch::mul_out(out, slope.select(0, t), a);
    dh = out;
  }
  return dualResult(hs, dhs, level);
}

FusedWindowResult mrnnTangentWindow(const torch::Tensor& xpDual, const torch::Tensor& h0Dual,
                                    const torch::Tensor& wMhDual, const torch::Tensor& wHmDual,
                                    const torch::Tensor& mask, uint64_t level,
                                    const torch::Tensor& known) {
  const auto xp = split(xpDual, level), h0 = split(h0Dual, level);
  const auto wMh = split(wMhDual, level), wHm = split(wHmDual, level);
  auto hs = fitting(known, xp.primal, wHm.primal.size(0));
  if (!hs.defined()) hs = mrnnPrimal(xp.primal, h0.primal, wMh.primal, wHm.primal, mask);
  const int64_t T = hs.size(0), H = hs.size(2), M = wMh.primal.size(0);
  const auto xm = xp.primal.narrow(2, 0, M);
  // The primal's u and m for every step, from its states: one product each.
  const auto hin = enteringStates(hs, h0.primal, mask);
  auto u = torch::zeros({T, hs.size(1), M}, hs.options());
  addProduct(u, hin, wMh.primal);
  const auto m = xm * u;
  // The tangents' parts from outside the recurrence: dm from dW_mx x and dW_mh, da from
  // dW_hx x + db and dW_hm.
  auto dmOutside = torch::zeros_like(u);
  if (wMh.tangent.defined()) addProduct(dmOutside, hin, wMh.tangent);
  dmOutside.mul_(xm);
  auto pre = torch::zeros_like(hs);
  if (xp.tangent.defined()) {
    dmOutside.addcmul_(xp.tangent.narrow(2, 0, M), u);
    pre.add_(xp.tangent.narrow(2, M, H));
  }
  if (wHm.tangent.defined()) addProduct(pre, m, wHm.tangent);
  const auto slope = 1.0 - hs * hs;
  auto dhs = torch::empty_like(hs);
  if (onRawFloats(hs)) {
    mrnnTangentSteps(dmOutside, pre, xp.primal.contiguous(), slope, wMh.primal.contiguous(),
                     wHm.primal.contiguous(), contiguousMask(mask, hs),
                     contiguousTangent(h0.tangent), dhs);
    return dualResult(hs, dhs, level);
  }
  const auto wMhT = wMh.primal.t(), wHmT = wHm.primal.t();
  const bool masked = hasMask(mask);
  auto dhin = masked ? torch::empty_like(hs.select(0, 0)) : torch::Tensor();
  auto du = torch::empty_like(u.select(0, 0));
  torch::Tensor dh = h0.tangent;
  // Per step: two products and two or three element-wise passes, into buffers made once.
  for (int64_t t = 0; t < T; ++t) {
    auto dm = dmOutside.select(0, t);
    if (dh.defined()) {
      torch::mm_out(du, masked ? torch::mul_out(dhin, dh, mask) : dh, wMhT);
      dm.addcmul_(xm.select(0, t), du);
    }
    auto a = pre.select(0, t);
    a.addmm_(dm, wHmT);
    auto out = dhs.select(0, t);
    torch::mul_out(out, slope.select(0, t), a);
    dh = out;
  }
  return dualResult(hs, dhs, level);
}

}  // namespace mrnn::engine
