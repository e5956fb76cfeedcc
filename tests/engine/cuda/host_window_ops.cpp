#include "host_window_ops.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace mrnn::test {

namespace {

using engine::cuda::Bfloat16Bits;
using engine::cuda::GemmCall;

int64_t extent(int64_t rows, int64_t cols, int64_t ld) {
  return engine::cuda::columnMajorSpan(rows, cols, ld);
}

bool overlaps(const float* a, int64_t na, const float* b, int64_t nb) {
  return na > 0 && nb > 0 && a < b + nb && b < a + na;
}

[[noreturn]] void refuse(const GemmCall& call, const std::string& why) {
  throw std::runtime_error(std::string(call.what) + ": cuBLAS would refuse this product: " + why);
}

// Checks the call as cuBLAS would, then c = op(a) op(b) (+ beta c) with a and b read through
// readA and readB (element index to float).
template <class ReadA, class ReadB>
void product(const GemmCall& call, ReadA readA, ReadB readB) {
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
        const float a = readA(call.transposeA ? l + i * call.lda : i + l * call.lda);
        const float b = readB(call.transposeB ? j + l * call.ldb : l + j * call.ldb);
        sum += static_cast<double>(a) * b;
      }
      float& c = call.c[i + j * call.ldc];
      // With beta 0, cuBLAS does not read c (it may hold NaN).
      c = call.beta == 0.0f ? static_cast<float>(sum) : static_cast<float>(sum + call.beta * c);
    }
  }
}

}  // namespace

void HostWindowOps::gemmFloat32(const GemmCall& call) {
  ++products_;
  product(
      call, [&](int64_t i) { return call.a[i]; }, [&](int64_t i) { return call.b[i]; });
}

void HostWindowOps::gemmBfloat16(const GemmCall& call, const Bfloat16Bits* a,
                                 const Bfloat16Bits* b) {
  ++products_;
  product(
      call, [&](int64_t i) { return engine::cuda::floatOf(a[i]); },
      [&](int64_t i) { return engine::cuda::floatOf(b[i]); });
}

Bfloat16Bits* HostWindowOps::bfloat16Buffer(int64_t n) {
  // All ones: a NaN, so a product reading a copy that was never rounded into is poisoned.
  bfloat16Buffers_.push_back(
      std::make_unique<std::vector<Bfloat16Bits>>(static_cast<size_t>(n), Bfloat16Bits{0xffff}));
  return bfloat16Buffers_.back()->data();
}

void HostWindowOps::copy(float* dst, const float* src, int64_t n) {
  ++steps_;
  std::copy(src, src + n, dst);
}

}  // namespace mrnn::test
