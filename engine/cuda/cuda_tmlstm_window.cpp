#include "engine/cuda/cuda_tmlstm_window.h"

#include <stdexcept>

#include "engine/cuda/multiplicative_state.h"

namespace mrnn::engine::cuda {

namespace {
constexpr const char* kProduct = "true mLSTM window product";
}  // namespace

// The four intermediate states are one multiplicative state of width 4M (W_mh stacked), so
// they share MultiplicativeState with the mLSTM; only the V products are per gate.
void windowForward(const TmlstmWindowSizes& sizes, const TmlstmWindowForwardBuffers& buf,
                   WindowOps& ops) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t N = 4 * M;      // a row of u and m
  const int64_t X = N + 4 * H;  // a row of xp
  if (T <= 0) throw std::runtime_error("true mLSTM window: no steps");
  ops.holdFixed(buf.wMh, N * H);
  ops.holdFixed(buf.v, 4 * H * M);
  ops.copy(buf.c, buf.c0, B * H);
  const MultiplicativeState state{B, H, N, X, buf.wMh, buf.mask, kProduct};
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    const float* xpT = buf.xp + t * B * X;
    float* mT = buf.m + t * B * N;
    multiplicativeStateForward(state, hPrev, xpT, buf.hin + t * B * H, buf.u + t * B * N, mT, ops);
    float* gT = buf.gates + t * B * 4 * H;
    for (int64_t g = 0; g < 4; ++g) {  // gate g = m_g V_g^T; the step adds W_x x + b
      ops.gemm(rowMajorGemm(false, true, B, H, M, mT + g * M, N, buf.v + g * H * M, M, false,
                            gT + g * H, 4 * H, kProduct));
    }
    float* h = buf.hs + t * B * H;
    ops.run(LstmRowsForward{gT, 4 * H, xpT + N, X, buf.c + t * B * H, buf.c + (t + 1) * B * H,
                            buf.tanhC + t * B * H, h, B, H});
    hPrev = h;
  }
}

void windowBackward(const TmlstmWindowSizes& sizes, const TmlstmWindowBackwardBuffers& buf,
                    WindowOps& ops) {
  const auto& saved = buf.saved;
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t N = 4 * M;
  const int64_t X = N + 4 * H;
  if (T <= 0) throw std::runtime_error("true mLSTM window: no steps");
  ops.holdFixed(saved.wMh, N * H);
  ops.holdFixed(saved.v, 4 * H * M);
  const MultiplicativeState state{B, H, N, X, saved.wMh, saved.mask, kProduct};
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* dOut = buf.dHs ? buf.dHs + t * B * H : nullptr;
    float* dXpT = buf.dXp + t * B * X;
    float* dGT = dXpT + N;  // rows of the gates' pre-activation gradients
    ops.run(LstmRowsBackward{saved.gates + t * B * 4 * H, 4 * H, saved.c + t * B * H,
                             saved.tanhC + t * B * H, buf.dh, dOut, buf.dc, dGT, X, B, H});
    for (int64_t g = 0; g < 4; ++g) {  // dm_g = dG_g V_g
      ops.gemm(rowMajorGemm(false, false, B, M, H, dGT + g * H, X, saved.v + g * H * M, M, false,
                            buf.dM + g * M, N, kProduct));
    }
    // dh_in = du W_mh straight into dh (the step above has read it), then through the mask.
    multiplicativeStateBackward(state, buf.dM, saved.xp + t * B * X, saved.u + t * B * N, dXpT,
                                buf.dU + t * B * N, buf.dh, ops);
    ops.run(MaskedCopy{buf.dh, saved.mask, buf.dh, B * H});
  }
  // The weights' gradients: one product over all T x B rows each.
  for (int64_t g = 0; g < 4; ++g) {  // dV_g = dG_g^T m_g
    ops.gemm(rowMajorGemm(true, false, H, M, T * B, buf.dXp + N + g * H, X, saved.m + g * M, N,
                          false, buf.dV + g * H * M, M, kProduct));
  }
  multiplicativeWeightGradient(state, T * B, buf.dU, saved.hin, buf.dWmh, ops);
}

}  // namespace mrnn::engine::cuda
