#include "engine/cuda/cuda_mlstm_window.h"

#include <stdexcept>

#include "engine/cuda/cuda_check.h"
#include "engine/cuda/cuda_window_kernels.h"

// Plain C++ (compiled by the host compiler, not nvcc): the driver only enqueues cuBLAS calls
// and the kernels of cuda_window_kernels.cu, so nvcc's slower compile stays on one file.

namespace mrnn::engine::cuda {

namespace {

int asInt(int64_t v) {
  if (v < 0 || v > int64_t{0x7fffffff}) throw std::runtime_error("mLSTM window: size overflows");
  return static_cast<int>(v);
}

// out[m x n] = op(a) op(b) (+ out when accumulate), every matrix row-major with a leading
// dimension, as fusedProduct on the CPU. cuBLAS is column-major, and a row-major [r x c]
// matrix is the column-major [c x r] matrix of its transpose at the same leading dimension.
// So out^T = op(b)^T op(a)^T is computed column-major: the operands swap places (b first),
// m and n swap, and each keeps its own transposition flag.
// op(a) is a^T (a stored [k x m]) when transposeA, else a ([m x k]);
// op(b) is b^T (b stored [n x k]) when transposeB, else b ([k x n]).
void rowMajorSgemm(BlasHandle blas, bool transposeA, bool transposeB, int64_t m, int64_t n,
                   int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb,
                   bool accumulate, float* out, int64_t ldc) {
  const float alpha = 1.0f;
  const float beta = accumulate ? 1.0f : 0.0f;
  checkCublas(cublasSgemm(blas, transposeB ? CUBLAS_OP_T : CUBLAS_OP_N,
                          transposeA ? CUBLAS_OP_T : CUBLAS_OP_N, asInt(n), asInt(m), asInt(k),
                          &alpha, b, asInt(ldb), a, asInt(lda), &beta, out, asInt(ldc)),
              "mLSTM window sgemm");
}

}  // namespace

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
    rowMajorSgemm(blas, false, true, B, M, H, hinT, H, buf.wMh, H, false, uT, M);  // u = h W_mh^T
    const float* xpT = buf.xp + t * B * X;
    float* mT = buf.m + t * B * M;
    multiplyRows(xpT, X, uT, M, mT, M, B, M, stream);
    float* gT = buf.gates + t * B * 4 * H;
    // gates = m W_m^T; the kernel adds the hoisted W_x x + b (xp's columns M..) as it reads.
    rowMajorSgemm(blas, false, true, B, 4 * H, M, mT, M, buf.wM, M, false, gT, 4 * H);
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
    rowMajorSgemm(blas, false, false, B, M, 4 * H, dXpT + M, X, buf.wM, M, false, buf.dM,
                  M);  // dm = dG W_m
    float* dUT = buf.dU + t * B * M;
    multiplyRowsBackward(buf.dM, M, buf.xp + t * B * X, X, buf.u + t * B * M, M, dXpT, X, dUT, M, B,
                         M, stream);
    // dh_in = du W_mh, straight into dh (the step's kernel above has read it), then through
    // the mask to h_{t-1}.
    rowMajorSgemm(blas, false, false, B, H, M, dUT, M, buf.wMh, H, false, buf.dh, H);
    maskedCopy(buf.dh, buf.mask, buf.dh, B * H, stream);
  }
  // The weights' gradients: one product over all T x B rows each.
  rowMajorSgemm(blas, true, false, 4 * H, M, T * B, buf.dXp + M, X, buf.m, M, false, buf.dWm,
                M);  // dW_m = dG^T m
  rowMajorSgemm(blas, true, false, M, H, T * B, buf.dU, M, buf.hin, H, false, buf.dWmh,
                H);  // dW_mh = dU^T hin
}

}  // namespace mrnn::engine::cuda
