#include "engine/kernels/blas_gemm.h"

#include <dlfcn.h>

#include <atomic>
#include <limits>

namespace mrnn::engine {

namespace {

// The CBLAS interface's constants (cblas.h), spelled out to need no header.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*,
                            int, float, float*, int);

CblasSgemm cblasSgemm() {
  static const auto function = reinterpret_cast<CblasSgemm>(dlsym(RTLD_DEFAULT, "cblas_sgemm"));
  return function;
}

std::atomic<bool> enabled{true};

}  // namespace

bool rawSgemmAvailable() {
  return enabled && cblasSgemm() != nullptr;
}

void setRawSgemmEnabled(bool on) {
  enabled = on;
}

bool rawSgemm(bool transposeB, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
              int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  const CblasSgemm function = enabled ? cblasSgemm() : nullptr;
  constexpr int64_t most = std::numeric_limits<int>::max();
  // The 32-bit CBLAS interface: larger problems go through LibTorch.
  if (!function || m > most || n > most || k > most || lda > most || ldb > most || ldc > most) {
    return false;
  }
  function(kRowMajor, kNoTrans, transposeB ? kTrans : kNoTrans, static_cast<int>(m),
           static_cast<int>(n), static_cast<int>(k), alpha, a, static_cast<int>(lda), b,
           static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
  return true;
}

}  // namespace mrnn::engine
