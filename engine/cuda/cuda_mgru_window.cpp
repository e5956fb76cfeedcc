#include "engine/cuda/cuda_mgru_window.h"

#include <stdexcept>

#include "engine/cuda/multiplicative_state.h"

namespace mrnn::engine::cuda {

namespace {
constexpr const char* kProduct = "mGRU window product";
}  // namespace

void windowForward(const MgruWindowSizes& sizes, const MgruWindowForwardBuffers& buf,
                   WindowOps& ops) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t G = 2 * H + M;  // a row of gates: [z (H) | r (M) | j (H)]
  const int64_t X = M + G;      // a row of xp: [W_mx x | the gates' U x + b]
  if (T <= 0) throw std::runtime_error("mGRU window: no steps");
  ops.holdFixed(buf.wMh, M * H);
  ops.holdFixed(buf.vZr, (H + M) * M);
  ops.holdFixed(buf.vH, H * M);
  const MultiplicativeState state{B, H, M, X, buf.wMh, buf.mask, kProduct};
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    const float* xpT = buf.xp + t * B * X;
    float* mT = buf.m + t * B * M;
    multiplicativeStateForward(state, hPrev, xpT, buf.hin + t * B * H, buf.u + t * B * M, mT, ops);
    float* gT = buf.gates + t * B * G;
    // [z r] = sigmoid(m [V_z; V_r]^T + xp's z r): the inputs join as the step activates.
    ops.gemm(rowMajorGemm(false, true, B, H + M, M, mT, M, buf.vZr, M, false, gT, G, kProduct));
    ops.run(ActivateRows{gT, G, xpT + M, X, B, H + M, ActivateRows::Kind::Sigmoid});
    float* rmT = buf.rm + t * B * M;
    ops.run(ResetRowsForward{gT + H, G, mT, rmT, B, M});
    // j = tanh((r m) V_h^T + xp's j).
    ops.gemm(rowMajorGemm(false, true, B, H, M, rmT, M, buf.vH, M, false, gT + H + M, G, kProduct));
    ops.run(ActivateRows{gT + H + M, G, xpT + M + H + M, X, B, H, ActivateRows::Kind::Tanh});
    float* h = buf.hs + t * B * H;
    ops.run(GruRowsForward{gT, G, gT + H + M, G, hPrev, h, B, H});
    hPrev = h;
  }
}

void windowBackward(const MgruWindowSizes& sizes, const MgruWindowBackwardBuffers& buf,
                    WindowOps& ops) {
  const auto& saved = buf.saved;
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t G = 2 * H + M;
  const int64_t X = M + G;
  if (T <= 0) throw std::runtime_error("mGRU window: no steps");
  ops.holdFixed(saved.wMh, M * H);
  ops.holdFixed(saved.vZr, (H + M) * M);
  ops.holdFixed(saved.vH, H * M);
  const MultiplicativeState state{B, H, M, X, saved.wMh, saved.mask, kProduct};
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* gT = saved.gates + t * B * G;
    const float* hPrev = t > 0 ? saved.hs + (t - 1) * B * H : saved.h0;
    float* dXpT = buf.dXp + t * B * X;
    float* dGT = dXpT + M;  // rows of [dz | dr | dj]
    ops.run(AddOrCopy{buf.dh, buf.dHs ? buf.dHs + t * B * H : nullptr, buf.dhStep, B * H});
    // dz, dj, and dh_{t-1} = dh (1 - z) through the update.
    ops.run(GruRowsBackward{gT, G, gT + H + M, G, hPrev, buf.dhStep, dGT, X, dGT + H + M, X, buf.dh,
                            B, H});
    ops.gemm(rowMajorGemm(false, false, B, M, H, dGT + H + M, X, saved.vH, M, false, buf.dM, M,
                          kProduct));  // d(r m) = dj V_h
    ops.run(ResetRowsBackward{gT + H, G, saved.m + t * B * M, buf.dM, dGT + H, X, buf.dM, B, M});
    ops.gemm(rowMajorGemm(false, false, B, M, H + M, dGT, X, saved.vZr, M, true, buf.dM, M,
                          kProduct));  // dm += [dz dr] [V_z; V_r]
    multiplicativeStateBackward(state, buf.dM, saved.xp + t * B * X, saved.u + t * B * M, dXpT,
                                buf.dU + t * B * M, buf.dHin, ops);
    ops.run(MaskedAccumulate{buf.dHin, saved.mask, buf.dh, B * H});
  }
  // The weights' gradients: one product over all T x B rows each.
  multiplicativeWeightGradient(state, T * B, buf.dU, saved.hin, buf.dWmh, ops);
  ops.gemm(rowMajorGemm(true, false, H + M, M, T * B, buf.dXp + M, X, saved.m, M, false, buf.dVzr,
                        M, kProduct));  // d[V_z; V_r] = [dz dr]^T m
  ops.gemm(rowMajorGemm(true, false, H, M, T * B, buf.dXp + M + H + M, X, saved.rm, M, false,
                        buf.dVh, M, kProduct));  // dV_h = dj^T (r m)
}

}  // namespace mrnn::engine::cuda
