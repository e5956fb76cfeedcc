#pragma once

// The matrix products of the CUDA windows, written in the CPU windows' row-major terms
// (fusedProduct in engine/models/fused_window_kernels.h) and turned into the column-major
// call cuBLAS takes. Plain C++, so the mapping is tested on any machine.

#include <cstdint>

namespace mrnn::engine::cuda {

// cublasSgemm's arguments, column-major: c[m x n] = op(a)[m x k] op(b)[k x n] + beta c, with
// op the transposition when the flag says so and alpha 1. With beta 0, c is not read.
struct GemmCall {
  bool transposeA = false;
  bool transposeB = false;
  int64_t m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  const float* b = nullptr;
  int64_t ldb = 0;
  float beta = 0.0f;
  float* c = nullptr;
  int64_t ldc = 0;
  const char* what = "";  // names the product in errors
};

// out[m x n] = op(a) op(b) (+ out when accumulate), every matrix row-major with a leading
// dimension. op(a) is a^T (a stored [k x m]) when transposeA, else a ([m x k]); op(b) is b^T
// (b stored [n x k]) when transposeB, else b ([k x n]).
GemmCall rowMajorGemm(bool transposeA, bool transposeB, int64_t m, int64_t n, int64_t k,
                      const float* a, int64_t lda, const float* b, int64_t ldb, bool accumulate,
                      float* out, int64_t ldc, const char* what);

}  // namespace mrnn::engine::cuda
