#pragma once

#include <cstddef>
#include <cstdint>

namespace mrnn::engine {

// One product C = A op(B) + beta C on raw row-major floats, as rawSgemm() takes it.
// A: [m, k] (lda), B: [k, n] or, transposed, [n, k] (ldb), C: [m, n] (ldc).
struct SgemmCall {
  bool transposeB = false;
  int64_t m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  const float* b = nullptr;
  int64_t ldb = 0;
  float beta = 0.0f;
  float* c = nullptr;
  int64_t ldc = 0;
};

// Runs independent products (no call reads what another writes) with C's columns split over
// `threads` OpenMP threads (the caller passes LibTorch's count, which the thread governor
// sets), each piece on one BLAS thread. A fused window's per-step
// products are short and wide (32 rows), where OpenBLAS's own threading synchronises its
// threads inside each product; split by columns, the threads only meet at the end, which is
// 1.2-1.6x faster on two cores and degrades far less when another program takes a core
// (docs/performance-history.md, "what packed weights changed"). Where splitting does not apply (one
// thread, a BLAS other than OpenBLAS's OpenMP build, already inside a parallel region, too little
// work) the calls run one after the other through rawSgemm(). Returns false, doing nothing, when
// rawSgemm() has no CBLAS; the caller then uses LibTorch.
bool splitSgemm(const SgemmCall* calls, std::size_t count, int threads);

// Whether splitSgemm() splits products at all in this process (OpenBLAS built with OpenMP,
// and splitting enabled).
bool splitSgemmAvailable();

// Off: splitSgemm() runs its calls one after the other, as the BLAS threads them, so that
// benchmarks and tests can compare both. On by default; MRNN_SPLIT_PRODUCTS=0 in the
// environment turns it off for a process.
void setSplitSgemmEnabled(bool enabled);

}  // namespace mrnn::engine
