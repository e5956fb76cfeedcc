#pragma once

#include <cstdint>

namespace mrnn::engine {

// C = alpha A op(B) + beta C on raw row-major floats through the process's CBLAS
// (cblas_sgemm of the BLAS LibTorch loaded, looked up at run time), without LibTorch's
// dispatch and tensor views: per-step products in a fused window are small, and there those
// costs are a noticeable share of the product. Returns false, doing nothing, when the process
// has no CBLAS (LibTorch with MKL linked in statically, say); the caller then uses at::mm.
// A: [m, k] (lda), B: [k, n] or, transposed, [n, k] (ldb), C: [m, n] (ldc).
bool rawSgemm(bool transposeB, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
              int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

// Whether rawSgemm() has a CBLAS to call (and is enabled).
bool rawSgemmAvailable();

// Off: rawSgemm() returns false as if there were no CBLAS, so that tests cover the callers'
// LibTorch path too. On by default.
void setRawSgemmEnabled(bool enabled);

}  // namespace mrnn::engine
