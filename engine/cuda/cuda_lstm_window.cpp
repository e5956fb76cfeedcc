#include "engine/cuda/cuda_lstm_window.h"

#include <stdexcept>

namespace mrnn::engine::cuda {

namespace {
constexpr const char* kProduct = "LSTM window product";
}  // namespace

void windowForward(const LstmWindowSizes& sizes, const LstmWindowForwardBuffers& buf,
                   WindowOps& ops) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
  if (T <= 0) throw std::runtime_error("LSTM window: no steps");
  ops.holdFixed(buf.wH, 4 * H * H);
  ops.copy(buf.c, buf.c0, B * H);
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    float* hinT = buf.hin + t * B * H;
    ops.run(MaskedCopy{hPrev, buf.mask, hinT, B * H});
    float* gT = buf.gates + t * B * 4 * H;
    // gates = h W_h^T; the step adds the hoisted W_x x + b as it reads.
    ops.gemm(
        rowMajorGemm(false, true, B, 4 * H, H, hinT, H, buf.wH, H, false, gT, 4 * H, kProduct));
    float* h = buf.hs + t * B * H;
    ops.run(LstmRowsForward{gT, 4 * H, buf.xp + t * B * 4 * H, 4 * H, buf.c + t * B * H,
                            buf.c + (t + 1) * B * H, buf.tanhC + t * B * H, h, B, H});
    hPrev = h;
  }
}

void windowBackward(const LstmWindowSizes& sizes, const LstmWindowBackwardBuffers& buf,
                    WindowOps& ops) {
  const auto& saved = buf.saved;
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
  if (T <= 0) throw std::runtime_error("LSTM window: no steps");
  ops.holdFixed(saved.wH, 4 * H * H);
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* dOut = buf.dHs ? buf.dHs + t * B * H : nullptr;
    float* dGatesT = buf.dXp + t * B * 4 * H;
    ops.run(LstmRowsBackward{saved.gates + t * B * 4 * H, 4 * H, saved.c + t * B * H,
                             saved.tanhC + t * B * H, buf.dh, dOut, buf.dc, dGatesT, 4 * H, B, H});
    // dh_in = dG W_h, straight into dh (the step above has read it), then through the mask
    // to h_{t-1}.
    ops.gemm(rowMajorGemm(false, false, B, H, 4 * H, dGatesT, 4 * H, saved.wH, H, false, buf.dh, H,
                          kProduct));
    ops.run(MaskedCopy{buf.dh, saved.mask, buf.dh, B * H});
  }
  // dW_h = dG^T hin, one product over all T x B rows.
  ops.gemm(rowMajorGemm(true, false, 4 * H, H, T * B, buf.dXp, 4 * H, saved.hin, H, false, buf.dWh,
                        H, kProduct));
}

}  // namespace mrnn::engine::cuda
