#include "engine/cuda/cuda_products.h"

#include <stdexcept>
#include <string>

#include "engine/cuda/cuda_check.h"

namespace mrnn::engine::cuda {
namespace {

int asInt(int64_t v, const char* what) {
  if (v < 0 || v > int64_t{0x7fffffff}) {
    throw std::runtime_error(std::string(what) + ": a matrix size overflows cuBLAS's int");
  }
  return static_cast<int>(v);
}

}  // namespace

// cuBLAS is column-major, and a row-major [r x c] matrix is the column-major [c x r] matrix
// of its transpose at the same leading dimension. So out^T = op(b)^T op(a)^T is computed
// column-major: the operands swap places (b first), m and n swap, and each keeps its own
// transposition flag.
void rowMajorSgemm(BlasHandle blas, bool transposeA, bool transposeB, int64_t m, int64_t n,
                   int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb,
                   bool accumulate, float* out, int64_t ldc, const char* what) {
  const float alpha = 1.0f;
  const float beta = accumulate ? 1.0f : 0.0f;
  checkCublas(cublasSgemm(blas, transposeB ? CUBLAS_OP_T : CUBLAS_OP_N,
                          transposeA ? CUBLAS_OP_T : CUBLAS_OP_N, asInt(n, what), asInt(m, what),
                          asInt(k, what), &alpha, b, asInt(ldb, what), a, asInt(lda, what), &beta,
                          out, asInt(ldc, what)),
              what);
}

}  // namespace mrnn::engine::cuda
