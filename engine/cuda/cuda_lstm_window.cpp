#include "engine/cuda/cuda_lstm_window.h"

#include <stdexcept>

#include "engine/cuda/cuda_check.h"
#include "engine/cuda/cuda_products.h"
#include "engine/cuda/cuda_window_kernels.h"

namespace mrnn::engine::cuda {

namespace {
constexpr const char* kProduct = "LSTM window product";
}  // namespace

void lstmWindowForward(const LstmWindowSizes& sizes, const LstmWindowForwardBuffers& buf,
                       BlasHandle blas, Stream stream) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
  if (T <= 0) throw std::runtime_error("LSTM window: no steps");
  checkCublas(cublasSetStream(blas, stream), "LSTM window cublasSetStream");
  checkCuda(cudaMemcpyAsync(buf.c, buf.c0, static_cast<size_t>(B * H) * sizeof(float),
                            cudaMemcpyDeviceToDevice, stream),
            "LSTM window c0 copy");
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    float* hinT = buf.hin + t * B * H;
    maskedCopy(hPrev, buf.mask, hinT, B * H, stream);
    float* gT = buf.gates + t * B * 4 * H;
    // gates = h W_h^T; the kernel adds the hoisted W_x x + b as it reads.
    rowMajorSgemm(blas, false, true, B, 4 * H, H, hinT, H, buf.wH, H, false, gT, 4 * H, kProduct);
    float* h = buf.hs + t * B * H;
    lstmRowsForward(gT, 4 * H, buf.xp + t * B * 4 * H, 4 * H, buf.c + t * B * H,
                    buf.c + (t + 1) * B * H, buf.tanhC + t * B * H, h, B, H, stream);
    hPrev = h;
  }
}

void lstmWindowBackward(const LstmWindowSizes& sizes, const LstmWindowBackwardBuffers& buf,
                        BlasHandle blas, Stream stream) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H;
  if (T <= 0) throw std::runtime_error("LSTM window: no steps");
  checkCublas(cublasSetStream(blas, stream), "LSTM window cublasSetStream");
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* dOut = buf.dHs ? buf.dHs + t * B * H : nullptr;
    float* dGatesT = buf.dXp + t * B * 4 * H;
    lstmRowsBackward(buf.gates + t * B * 4 * H, 4 * H, buf.c + t * B * H, buf.tanhC + t * B * H,
                     buf.dh, dOut, buf.dc, dGatesT, 4 * H, B, H, stream);
    // dh_in = dG W_h, straight into dh (the step's kernel above has read it), then through
    // the mask to h_{t-1}.
    rowMajorSgemm(blas, false, false, B, H, 4 * H, dGatesT, 4 * H, buf.wH, H, false, buf.dh, H,
                  kProduct);
    maskedCopy(buf.dh, buf.mask, buf.dh, B * H, stream);
  }
  // dW_h = dG^T hin, one product over all T x B rows.
  rowMajorSgemm(blas, true, false, 4 * H, H, T * B, buf.dXp, 4 * H, buf.hin, H, false, buf.dWh, H,
                kProduct);
}

}  // namespace mrnn::engine::cuda
