#include "engine/cuda/cuda_mrnn_window.h"

#include <stdexcept>

#include "engine/cuda/multiplicative_state.h"

namespace mrnn::engine::cuda {

namespace {
constexpr const char* kProduct = "mRNN window product";
}  // namespace

void windowForward(const MrnnWindowSizes& sizes, const MrnnWindowForwardBuffers& buf,
                   WindowOps& ops) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t X = M + H;
  if (T <= 0) throw std::runtime_error("mRNN window: no steps");
  ops.holdFixed(buf.wMh, M * H);
  ops.holdFixed(buf.wHm, H * M);
  const MultiplicativeState state{B, H, M, X, buf.wMh, buf.mask, kProduct};
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    const float* xpT = buf.xp + t * B * X;
    float* mT = buf.m + t * B * M;
    multiplicativeStateForward(state, hPrev, xpT, buf.hin + t * B * H, buf.u + t * B * M, mT, ops);
    float* h = buf.hs + t * B * H;
    // h = tanh(m W_hm^T + xp's W_hx x + b): the input joins as the step activates.
    ops.gemm(rowMajorGemm(false, true, B, H, M, mT, M, buf.wHm, M, false, h, H, kProduct));
    ops.run(ActivateRows{h, H, xpT + M, X, B, H, ActivateRows::Kind::Tanh});
    hPrev = h;
  }
}

void windowBackward(const MrnnWindowSizes& sizes, const MrnnWindowBackwardBuffers& buf,
                    WindowOps& ops) {
  const auto& saved = buf.saved;
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t X = M + H;
  if (T <= 0) throw std::runtime_error("mRNN window: no steps");
  ops.holdFixed(saved.wMh, M * H);
  ops.holdFixed(saved.wHm, H * M);
  const MultiplicativeState state{B, H, M, X, saved.wMh, saved.mask, kProduct};
  for (int64_t t = T - 1; t >= 0; --t) {
    float* dXpT = buf.dXp + t * B * X;
    float* dPre = dXpT + M;
    ops.run(TanhRowsBackward{saved.hs + t * B * H, buf.dh, buf.dHs ? buf.dHs + t * B * H : nullptr,
                             dPre, X, B, H});
    ops.gemm(rowMajorGemm(false, false, B, M, H, dPre, X, saved.wHm, M, false, buf.dM, M,
                          kProduct));  // dm = dPre W_hm
    // dh_in = du W_mh straight into dh (the step above has read it), then through the mask.
    multiplicativeStateBackward(state, buf.dM, saved.xp + t * B * X, saved.u + t * B * M, dXpT,
                                buf.dU + t * B * M, buf.dh, ops);
    ops.run(MaskedCopy{buf.dh, saved.mask, buf.dh, B * H});
  }
  ops.gemm(rowMajorGemm(true, false, H, M, T * B, buf.dXp + M, X, saved.m, M, false, buf.dWhm, M,
                        kProduct));  // dW_hm = dPre^T m
  multiplicativeWeightGradient(state, T * B, buf.dU, saved.hin, buf.dWmh, ops);
}

}  // namespace mrnn::engine::cuda
