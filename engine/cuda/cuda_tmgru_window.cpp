#include "engine/cuda/cuda_tmgru_window.h"

#include <stdexcept>

#include "engine/cuda/multiplicative_state.h"

namespace mrnn::engine::cuda {

namespace {

constexpr const char* kProduct = "true mGRU window product";

// The two multiplicative states of a step: m_z, m_r from the masked h (W_mh_zr, xp's first
// 2M columns), and m_h from r * h (W_mh_h, xp's next M), already masked through h.
struct TmgruStates {
  MultiplicativeState zr, h;
};

TmgruStates statesOf(const TmgruWindowSizes& s, const float* wMhZr, const float* wMhH,
                     const float* mask) {
  const int64_t X = 3 * s.M + 3 * s.H;
  return {{s.B, s.H, 2 * s.M, X, wMhZr, mask, kProduct},
          {s.B, s.H, s.M, X, wMhH, nullptr, kProduct}};
}

}  // namespace

void windowForward(const TmgruWindowSizes& sizes, const TmgruWindowForwardBuffers& buf,
                   WindowOps& ops) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t G = 3 * H;      // a row of gates: [z | r | j]
  const int64_t X = 3 * M + G;  // a row of xp
  if (T <= 0) throw std::runtime_error("true mGRU window: no steps");
  ops.holdFixed(buf.wMhZr, 2 * M * H);
  ops.holdFixed(buf.wMhH, M * H);
  ops.holdFixed(buf.v, 3 * H * M);
  const TmgruStates states = statesOf(sizes, buf.wMhZr, buf.wMhH, buf.mask);
  const float* vZ = buf.v;
  const float* vR = vZ + H * M;
  const float* vH = vR + H * M;
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    const float* xpT = buf.xp + t * B * X;
    float* hinT = buf.hin + t * B * H;
    float* mZrT = buf.mZr + t * B * 2 * M;
    multiplicativeStateForward(states.zr, hPrev, xpT, hinT, buf.uZr + t * B * 2 * M, mZrT, ops);
    float* gT = buf.gates + t * B * G;
    // z, r = sigmoid(m_z V_z^T, m_r V_r^T + xp's z r): the inputs join as the step activates.
    ops.gemm(rowMajorGemm(false, true, B, H, M, mZrT, 2 * M, vZ, M, false, gT, G, kProduct));
    ops.gemm(
        rowMajorGemm(false, true, B, H, M, mZrT + M, 2 * M, vR, M, false, gT + H, G, kProduct));
    ops.run(ActivateRows{gT, G, xpT + 3 * M, X, B, 2 * H, ActivateRows::Kind::Sigmoid});
    float* rhT = buf.rh + t * B * H;
    ops.run(ResetRowsForward{gT + H, G, hinT, rhT, B, H});
    float* mHT = buf.mH + t * B * M;
    multiplicativeProduct(states.h, rhT, xpT + 2 * M, buf.uH + t * B * M, mHT, ops);
    // j = tanh(m_h V_h^T + xp's j).
    ops.gemm(rowMajorGemm(false, true, B, H, M, mHT, M, vH, M, false, gT + 2 * H, G, kProduct));
    ops.run(ActivateRows{gT + 2 * H, G, xpT + 3 * M + 2 * H, X, B, H, ActivateRows::Kind::Tanh});
    float* h = buf.hs + t * B * H;
    ops.run(GruRowsForward{gT, G, gT + 2 * H, G, hPrev, h, B, H});
    hPrev = h;
  }
}

void windowBackward(const TmgruWindowSizes& sizes, const TmgruWindowBackwardBuffers& buf,
                    WindowOps& ops) {
  const auto& saved = buf.saved;
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t G = 3 * H;
  const int64_t X = 3 * M + G;
  if (T <= 0) throw std::runtime_error("true mGRU window: no steps");
  ops.holdFixed(saved.wMhZr, 2 * M * H);
  ops.holdFixed(saved.wMhH, M * H);
  ops.holdFixed(saved.v, 3 * H * M);
  const TmgruStates states = statesOf(sizes, saved.wMhZr, saved.wMhH, saved.mask);
  const float* vZ = saved.v;
  const float* vR = vZ + H * M;
  const float* vH = vR + H * M;
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* gT = saved.gates + t * B * G;
    const float* hPrev = t > 0 ? saved.hs + (t - 1) * B * H : saved.h0;
    const float* xpT = saved.xp + t * B * X;
    float* dXpT = buf.dXp + t * B * X;
    float* dGT = dXpT + 3 * M;  // rows of [dz | dr | dj]
    ops.run(AddOrCopy{buf.dh, buf.dHs ? buf.dHs + t * B * H : nullptr, buf.dhStep, B * H});
    // dz, dj, and dh_{t-1} = dh (1 - z) through the update.
    ops.run(GruRowsBackward{gT, G, gT + 2 * H, G, hPrev, buf.dhStep, dGT, X, dGT + 2 * H, X, buf.dh,
                            B, H});
    // The candidate's path: m_h, then r * hin through W_mh_h, then r and hin.
    ops.gemm(rowMajorGemm(false, false, B, M, H, dGT + 2 * H, X, vH, M, false, buf.dMH, M,
                          kProduct));  // dm_h = dj V_h
    multiplicativeStateBackward(states.h, buf.dMH, xpT + 2 * M, saved.uH + t * B * M, dXpT + 2 * M,
                                buf.dUH + t * B * M, buf.dHin, ops);
    ops.run(
        ResetRowsBackward{gT + H, G, saved.hin + t * B * H, buf.dHin, dGT + H, X, buf.dHin, B, H});
    // The gates' paths: m_z and m_r, then hin through W_mh_zr, added to the candidate's.
    ops.gemm(rowMajorGemm(false, false, B, M, H, dGT, X, vZ, M, false, buf.dMZr, 2 * M,
                          kProduct));  // dm_z = dz V_z
    ops.gemm(rowMajorGemm(false, false, B, M, H, dGT + H, X, vR, M, false, buf.dMZr + M, 2 * M,
                          kProduct));  // dm_r = dr V_r
    multiplicativeStateBackward(states.zr, buf.dMZr, xpT, saved.uZr + t * B * 2 * M, dXpT,
                                buf.dUZr + t * B * 2 * M, buf.dHin, ops, true);
    ops.run(MaskedAccumulate{buf.dHin, saved.mask, buf.dh, B * H});
  }
  // The weights' gradients: one product over all T x B rows each.
  multiplicativeWeightGradient(states.zr, T * B, buf.dUZr, saved.hin, buf.dWmhZr, ops);
  multiplicativeWeightGradient(states.h, T * B, buf.dUH, saved.rh, buf.dWmhH, ops);
  const float* dG = buf.dXp + 3 * M;
  ops.gemm(rowMajorGemm(true, false, H, M, T * B, dG, X, saved.mZr, 2 * M, false, buf.dV, M,
                        kProduct));  // dV_z = dz^T m_z
  ops.gemm(rowMajorGemm(true, false, H, M, T * B, dG + H, X, saved.mZr + M, 2 * M, false,
                        buf.dV + H * M, M, kProduct));  // dV_r = dr^T m_r
  ops.gemm(rowMajorGemm(true, false, H, M, T * B, dG + 2 * H, X, saved.mH, M, false,
                        buf.dV + 2 * H * M, M, kProduct));  // dV_h = dj^T m_h
}

}  // namespace mrnn::engine::cuda
