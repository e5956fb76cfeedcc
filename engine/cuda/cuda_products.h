#pragma once

// The matrix products of the CUDA windows (internal to engine/cuda), in the CPU windows'
// row-major terms (fusedProduct in engine/models/fused_window_kernels.h).

#include <cstdint>

#include "engine/cuda/cuda_handles.h"

namespace mrnn::engine::cuda {

// out[m x n] = op(a) op(b) (+ out when accumulate), every matrix row-major with a leading
// dimension. op(a) is a^T (a stored [k x m]) when transposeA, else a ([m x k]); op(b) is b^T
// (b stored [n x k]) when transposeB, else b ([k x n]). Enqueued on the handle's stream;
// throws std::runtime_error naming `what` when cuBLAS refuses or a size overflows an int.
void rowMajorSgemm(BlasHandle blas, bool transposeA, bool transposeB, int64_t m, int64_t n,
                   int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb,
                   bool accumulate, float* out, int64_t ldc, const char* what);

}  // namespace mrnn::engine::cuda
