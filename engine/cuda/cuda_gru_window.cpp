#include "engine/cuda/cuda_gru_window.h"

#include <stdexcept>

namespace mrnn::engine::cuda {

namespace {
constexpr const char* kProduct = "GRU window product";
}  // namespace

void windowForward(const GruWindowSizes& sizes, const GruWindowForwardBuffers& buf,
                   WindowOps& ops) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
  const int64_t X = 3 * H;  // a row of xp, and of gates: [z | r | j]
  if (T <= 0) throw std::runtime_error("GRU window: no steps");
  ops.holdFixed(buf.wZr, 2 * H * H);
  ops.holdFixed(buf.wH, H * H);
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    float* hinT = buf.hin + t * B * H;
    ops.run(MaskedCopy{hPrev, buf.mask, hinT, B * H});
    const float* xpT = buf.xp + t * B * X;
    float* gT = buf.gates + t * B * X;
    // [z r] = sigmoid(hin W_zr^T + xp's z r): the product alone, the inputs join as it activates.
    ops.gemm(rowMajorGemm(false, true, B, 2 * H, H, hinT, H, buf.wZr, H, false, gT, X, kProduct));
    ops.run(ActivateRows{gT, X, xpT, X, B, 2 * H, ActivateRows::Kind::Sigmoid});
    float* rhT = buf.rh + t * B * H;
    ops.run(ResetRowsForward{gT + H, X, hinT, rhT, B, H});
    // j = tanh((r hin) W_h^T + xp's j).
    ops.gemm(rowMajorGemm(false, true, B, H, H, rhT, H, buf.wH, H, false, gT + 2 * H, X, kProduct));
    ops.run(ActivateRows{gT + 2 * H, X, xpT + 2 * H, X, B, H, ActivateRows::Kind::Tanh});
    float* h = buf.hs + t * B * H;
    ops.run(GruRowsForward{gT, X, gT + 2 * H, X, hPrev, h, B, H});
    hPrev = h;
  }
}

void windowBackward(const GruWindowSizes& sizes, const GruWindowBackwardBuffers& buf,
                    WindowOps& ops) {
  const auto& saved = buf.saved;
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
  const int64_t X = 3 * H;
  if (T <= 0) throw std::runtime_error("GRU window: no steps");
  ops.holdFixed(saved.wZr, 2 * H * H);
  ops.holdFixed(saved.wH, H * H);
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* gT = saved.gates + t * B * X;
    const float* hinT = saved.hin + t * B * H;
    const float* hPrev = t > 0 ? saved.hs + (t - 1) * B * H : saved.h0;
    float* dXpT = buf.dXp + t * B * X;
    ops.run(AddOrCopy{buf.dh, buf.dHs ? buf.dHs + t * B * H : nullptr, buf.dhStep, B * H});
    // dz, dj, and dh_{t-1} = dh (1 - z) through the update.
    ops.run(GruRowsBackward{gT, X, gT + 2 * H, X, hPrev, buf.dhStep, dXpT, X, dXpT + 2 * H, X,
                            buf.dh, B, H});
    ops.gemm(rowMajorGemm(false, false, B, H, H, dXpT + 2 * H, X, saved.wH, H, false, buf.dRh, H,
                          kProduct));  // d(r hin) = dj W_h
    ops.run(ResetRowsBackward{gT + H, X, hinT, buf.dRh, dXpT + H, X, buf.dHin, B, H});
    ops.gemm(rowMajorGemm(false, false, B, H, 2 * H, dXpT, X, saved.wZr, H, true, buf.dHin, H,
                          kProduct));  // d hin += [dz dr] W_zr
    ops.run(MaskedAccumulate{buf.dHin, saved.mask, buf.dh, B * H});
  }
  // The weights' gradients: one product over all T x B rows each.
  ops.gemm(rowMajorGemm(true, false, 2 * H, H, T * B, buf.dXp, X, saved.hin, H, false, buf.dWzr, H,
                        kProduct));  // dW_zr = [dz dr]^T hin
  ops.gemm(rowMajorGemm(true, false, H, H, T * B, buf.dXp + 2 * H, X, saved.rh, H, false, buf.dWh,
                        H, kProduct));  // dW_h = dj^T (r hin)
}

}  // namespace mrnn::engine::cuda
