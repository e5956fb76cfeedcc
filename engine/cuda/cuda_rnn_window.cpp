#include "engine/cuda/cuda_rnn_window.h"

#include <stdexcept>

namespace mrnn::engine::cuda {

namespace {
constexpr const char* kProduct = "RNN window product";
}  // namespace

void windowForward(const RnnWindowSizes& sizes, const RnnWindowForwardBuffers& buf,
                   WindowOps& ops) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
  if (T <= 0) throw std::runtime_error("RNN window: no steps");
  ops.holdFixed(buf.wHh, H * H);
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    float* hinT = buf.hin + t * B * H;
    ops.run(MaskedCopy{hPrev, buf.mask, hinT, B * H});
    float* h = buf.hs + t * B * H;
    // h = tanh(hin W_hh^T + xp): the input joins as the step activates.
    ops.gemm(rowMajorGemm(false, true, B, H, H, hinT, H, buf.wHh, H, false, h, H, kProduct));
    ops.run(ActivateRows{h, H, buf.xp + t * B * H, H, B, H, ActivateRows::Kind::Tanh});
    hPrev = h;
  }
}

void windowBackward(const RnnWindowSizes& sizes, const RnnWindowBackwardBuffers& buf,
                    WindowOps& ops) {
  const auto& saved = buf.saved;
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
  if (T <= 0) throw std::runtime_error("RNN window: no steps");
  ops.holdFixed(saved.wHh, H * H);
  for (int64_t t = T - 1; t >= 0; --t) {
    float* dPre = buf.dXp + t * B * H;
    ops.run(TanhRowsBackward{saved.hs + t * B * H, buf.dh, buf.dHs ? buf.dHs + t * B * H : nullptr,
                             dPre, H, B, H});
    // dh_in = dPre W_hh straight into dh (the step above has read it), then through the mask.
    ops.gemm(
        rowMajorGemm(false, false, B, H, H, dPre, H, saved.wHh, H, false, buf.dh, H, kProduct));
    ops.run(MaskedCopy{buf.dh, saved.mask, buf.dh, B * H});
  }
  ops.gemm(rowMajorGemm(true, false, H, H, T * B, buf.dXp, H, saved.hin, H, false, buf.dWhh, H,
                        kProduct));  // dW_hh = dPre^T hin
}

}  // namespace mrnn::engine::cuda
