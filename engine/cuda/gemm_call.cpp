#include "engine/cuda/gemm_call.h"

namespace mrnn::engine::cuda {

// cuBLAS is column-major, and a row-major [r x c] matrix is the column-major [c x r] matrix
// of its transpose at the same leading dimension. So out^T = op(b)^T op(a)^T is computed
// column-major: the operands swap places (b first), m and n swap, and each keeps its own
// transposition flag.
GemmCall rowMajorGemm(bool transposeA, bool transposeB, int64_t m, int64_t n, int64_t k,
                      const float* a, int64_t lda, const float* b, int64_t ldb, bool accumulate,
                      float* out, int64_t ldc, const char* what) {
  GemmCall call;
  call.transposeA = transposeB;
  call.transposeB = transposeA;
  call.m = n;
  call.n = m;
  call.k = k;
  call.a = b;
  call.lda = ldb;
  call.b = a;
  call.ldb = lda;
  call.beta = accumulate ? 1.0f : 0.0f;
  call.c = out;
  call.ldc = ldc;
  call.what = what;
  return call;
}

}  // namespace mrnn::engine::cuda
