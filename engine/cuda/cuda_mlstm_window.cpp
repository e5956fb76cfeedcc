#include "engine/cuda/cuda_mlstm_window.h"

#include <stdexcept>

#include "engine/cuda/cuda_check.h"
#include "engine/cuda/cuda_products.h"
#include "engine/cuda/cuda_window_kernels.h"

// Plain C++ (compiled by the host compiler, not nvcc): the driver only enqueues cuBLAS calls
// and the kernels of cuda_window_kernels.cu, so nvcc's slower compile stays on one file.

namespace mrnn::engine::cuda {

void mlstmWindowForward(const MlstmWindowSizes& sizes, const MlstmWindowForwardBuffers& buf,
                        BlasHandle blas, Stream stream) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t X = M + 4 * H;  // a row of xp: [W_mx x | W_x x + b]
  if (T <= 0) throw std::runtime_error("mLSTM window: no steps");
  checkCublas(cublasSetStream(blas, stream), "mLSTM window cublasSetStream");
  checkCuda(cudaMemcpyAsync(buf.c, buf.c0, static_cast<size_t>(B * H) * sizeof(float),
                            cudaMemcpyDeviceToDevice, stream),
            "mLSTM window c0 copy");
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < T; ++t) {
    float* hinT = buf.hin + t * B * H;
    maskedCopy(hPrev, buf.mask, hinT, B * H, stream);
    float* uT = buf.u + t * B * M;
    rowMajorSgemm(blas, false, true, B, M, H, hinT, H, buf.wMh, H, false, uT, M,
                  "mLSTM window product");  // u = h W_mh^T
    const float* xpT = buf.xp + t * B * X;
    float* mT = buf.m + t * B * M;
    multiplyRows(xpT, X, uT, M, mT, M, B, M, stream);
    float* gT = buf.gates + t * B * 4 * H;
    // gates = m W_m^T; the kernel adds the hoisted W_x x + b (xp's columns M..) as it reads.
    rowMajorSgemm(blas, false, true, B, 4 * H, M, mT, M, buf.wM, M, false, gT, 4 * H,
                  "mLSTM window product");
    float* h = buf.hs + t * B * H;
    lstmRowsForward(gT, 4 * H, xpT + M, X, buf.c + t * B * H, buf.c + (t + 1) * B * H,
                    buf.tanhC + t * B * H, h, B, H, stream);
    hPrev = h;
  }
}

void mlstmWindowBackward(const MlstmWindowSizes& sizes, const MlstmWindowBackwardBuffers& buf,
                         BlasHandle blas, Stream stream) {
  const int64_t T = sizes.T, B = sizes.B, H = sizes.H, M = sizes.M;
  const int64_t X = M + 4 * H;
  if (T <= 0) throw std::runtime_error("mLSTM window: no steps");
  checkCublas(cublasSetStream(blas, stream), "mLSTM window cublasSetStream");
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* dOut = buf.dHs ? buf.dHs + t * B * H : nullptr;
    float* dXpT = buf.dXp + t * B * X;  // rows of [dXm | dGates]
    lstmRowsBackward(buf.gates + t * B * 4 * H, 4 * H, buf.c + t * B * H, buf.tanhC + t * B * H,
                     buf.dh, dOut, buf.dc, dXpT + M, X, B, H, stream);
    rowMajorSgemm(blas, false, false, B, M, 4 * H, dXpT + M, X, buf.wM, M, false, buf.dM, M,
                  "mLSTM window product");  // dm = dG W_m
    float* dUT = buf.dU + t * B * M;
    multiplyRowsBackward(buf.dM, M, buf.xp + t * B * X, X, buf.u + t * B * M, M, dXpT, X, dUT, M, B,
                         M, stream);
    // dh_in = du W_mh, straight into dh (the step's kernel above has read it), then through
    // the mask to h_{t-1}.
    rowMajorSgemm(blas, false, false, B, H, M, dUT, M, buf.wMh, H, false, buf.dh, H,
                  "mLSTM window product");
    maskedCopy(buf.dh, buf.mask, buf.dh, B * H, stream);
  }
  // The weights' gradients: one product over all T x B rows each.
  rowMajorSgemm(blas, true, false, 4 * H, M, T * B, buf.dXp + M, X, buf.m, M, false, buf.dWm, M,
                "mLSTM window product");  // dW_m = dG^T m
  rowMajorSgemm(blas, true, false, M, H, T * B, buf.dU, M, buf.hin, H, false, buf.dWmh, H,
                "mLSTM window product");  // dW_mh = dU^T hin
}

}  // namespace mrnn::engine::cuda
