#include "engine/cuda/cuda_mlstm_window.h"

#include <stdexcept>

#include "engine/cuda/multiplicative_state.h"

namespace mrnn::engine::cuda {

namespace {
constexpr const char* kProduct = "mLSTM window product";
}  // namespace

void windowForward(const MlstmWindowSizes& sizes, const MlstmWindowForwardBuffers& buf,
                   WindowOps& ops) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t X = M + 4 * H;  // a row of xp: [W_mx x | W_x x + b]
  if (T <= 0) throw std::runtime_error("mLSTM window: no steps");
  ops.holdFixed(buf.wMh, M * H);
  ops.holdFixed(buf.wM, 4 * H * M);
  ops.copy(buf.c, buf.c0, B * H);
  const MultiplicativeState state{B, H, M, X, buf.wMh, buf.mask, kProduct};
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    const float* xpT = buf.xp + t * B * X;
    float* mT = buf.m + t * B * M;
    multiplicativeStateForward(state, hPrev, xpT, buf.hin + t * B * H, buf.u + t * B * M, mT, ops);
    float* gT = buf.gates + t * B * 4 * H;
    // gates = m W_m^T; the step adds the hoisted W_x x + b (xp's columns M..) as it reads.
    ops.gemm(rowMajorGemm(false, true, B, 4 * H, M, mT, M, buf.wM, M, false, gT, 4 * H, kProduct));
    float* h = buf.hs + t * B * H;
    ops.run(LstmRowsForward{gT, 4 * H, xpT + M, X, buf.c + t * B * H, buf.c + (t + 1) * B * H,
                            buf.tanhC + t * B * H, h, B, H});
    hPrev = h;
  }
}

void windowBackward(const MlstmWindowSizes& sizes, const MlstmWindowBackwardBuffers& buf,
                    WindowOps& ops) {
  const auto& saved = buf.saved;
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t X = M + 4 * H;
  if (T <= 0) throw std::runtime_error("mLSTM window: no steps");
  ops.holdFixed(saved.wMh, M * H);
  ops.holdFixed(saved.wM, 4 * H * M);
  const MultiplicativeState state{B, H, M, X, saved.wMh, saved.mask, kProduct};
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* dOut = buf.dHs ? buf.dHs + t * B * H : nullptr;
    float* dXpT = buf.dXp + t * B * X;  // rows of [dXm | dGates]
    ops.run(LstmRowsBackward{saved.gates + t * B * 4 * H, 4 * H, saved.c + t * B * H,
                             saved.tanhC + t * B * H, buf.dh, dOut, buf.dc, dXpT + M, X, B, H});
    ops.gemm(rowMajorGemm(false, false, B, M, 4 * H, dXpT + M, X, saved.wM, M, false, buf.dM, M,
                          kProduct));  // dm = dG W_m
    // dh_in = du W_mh, straight into dh (the step above has read it), then through the mask
    // to h_{t-1}.
    multiplicativeStateBackward(state, buf.dM, saved.xp + t * B * X, saved.u + t * B * M, dXpT,
                                buf.dU + t * B * M, buf.dh, ops);
    ops.run(MaskedCopy{buf.dh, saved.mask, buf.dh, B * H});
  }
  // The weights' gradients: one product over all T x B rows each.
  ops.gemm(rowMajorGemm(true, false, 4 * H, M, T * B, buf.dXp + M, X, saved.m, M, false, buf.dWm, M,
                        kProduct));  // dW_m = dG^T m
  multiplicativeWeightGradient(state, T * B, buf.dU, saved.hin, buf.dWmh, ops);
}

}  // namespace mrnn::engine::cuda
