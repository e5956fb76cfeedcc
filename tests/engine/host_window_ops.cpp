#include "host_window_ops.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mrnn::test {

namespace {

using engine::cuda::GemmCall;

// The floats a column-major [rows x cols] matrix at leading dimension ld spans.
int64_t extent(int64_t rows, int64_t cols, int64_t ld) {
  return rows == 0 || cols == 0 ? 0 : (cols - 1) * ld + rows;
}

bool overlaps(const float* a, int64_t na, const float* b, int64_t nb) {
  return na > 0 && nb > 0 && a < b + nb && b < a + na;
}

[[noreturn]] void refuse(const GemmCall& call, const std::string& why) {
  throw std::runtime_error(std::string(call.what) + ": cuBLAS would refuse this product: " + why);
}

}  // namespace

void HostWindowOps::gemm(const GemmCall& call) {
  ++products_;
  const int64_t m = call.m, n = call.n, k = call.k;
  if (m < 0 || n < 0 || k < 0) refuse(call, "a negative size");
  // Stored shapes: op(a) is [m x k], so a is [m x k] or, transposed, [k x m]; likewise b.
  const int64_t aRows = call.transposeA ? k : m, aCols = call.transposeA ? m : k;
  const int64_t bRows = call.transposeB ? n : k, bCols = call.transposeB ? k : n;
  if (call.lda < std::max<int64_t>(1, aRows)) refuse(call, "lda below a's rows");
  if (call.ldb < std::max<int64_t>(1, bRows)) refuse(call, "ldb below b's rows");
  if (call.ldc < std::max<int64_t>(1, m)) refuse(call, "ldc below c's rows");
  const int64_t cSpan = extent(m, n, call.ldc);
  if (overlaps(call.c, cSpan, call.a, extent(aRows, aCols, call.lda)) ||
      overlaps(call.c, cSpan, call.b, extent(bRows, bCols, call.ldb))) {
    refuse(call, "the output overlaps an input");
  }
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0.0;
      for (int64_t l = 0; l < k; ++l) {
        const float a = call.transposeA ? call.a[l + i * call.lda] : call.a[i + l * call.lda];
        const float b = call.transposeB ? call.b[j + l * call.ldb] : call.b[l + j * call.ldb];
        sum += static_cast<double>(a) * b;
      }
      float& c = call.c[i + j * call.ldc];
      // With beta 0, cuBLAS does not read c (it may hold NaN).
      c = call.beta == 0.0f ? static_cast<float>(sum) : static_cast<float>(sum + call.beta * c);
    }
  }
}

void HostWindowOps::copy(float* dst, const float* src, int64_t n) {
  ++steps_;
  std::copy(src, src + n, dst);
}

}  // namespace mrnn::test
