#include "engine/cuda/window_ops.h"

#include <stdexcept>

namespace mrnn::engine::cuda {

void WindowOps::gemm(const GemmCall& call) {
  if (precision_ == ProductPrecision::Float32) {
    gemmFloat32(call);
    return;
  }
  // Stored shapes, column-major: op(a) is [m x k], op(b) is [k x n].
  const int64_t aSpan = call.transposeA ? columnMajorSpan(call.k, call.m, call.lda)
                                        : columnMajorSpan(call.m, call.k, call.lda);
  const int64_t bSpan = call.transposeB ? columnMajorSpan(call.n, call.k, call.ldb)
                                        : columnMajorSpan(call.k, call.n, call.ldb);
  const Bfloat16Bits* a = rounded(call.a, aSpan, stagingA_);
  const Bfloat16Bits* b = rounded(call.b, bSpan, stagingB_);
  gemmBfloat16(call, a, b);
}

void WindowOps::holdFixed(const float* p, int64_t n) {
  if (p == nullptr || n <= 0) throw std::runtime_error("window: an empty fixed block");
  if (precision_ == ProductPrecision::Float32) return;
  // Overlapping blocks would only round the same floats twice, alike; a block inside one
  // already held adds nothing.
  for (const auto& block : fixed_) {
    if (p >= block.p && p + n <= block.p + block.n) return;
  }
  fixed_.push_back({p, n, nullptr});
}

const Bfloat16Bits* WindowOps::rounded(const float* p, int64_t span, Staging& staging) {
  if (span <= 0) return nullptr;
  for (auto& block : fixed_) {
    if (p >= block.p && p + span <= block.p + block.n) {
      if (block.rounded == nullptr) {
        block.rounded = bfloat16Buffer(block.n);
        run(RoundToBfloat16{block.p, block.rounded, block.n});
      }
      return block.rounded + (p - block.p);
    }
  }
  // Each operand has its own staging buffer, reused product after product: the device runs
  // the rounding, the product and the next rounding in the order they were enqueued. A buffer
  // too small is replaced; the old one lives on until the ops go, as the product before may
  // still read it.
  if (staging.capacity < span) {
    staging.p = bfloat16Buffer(span);
    staging.capacity = span;
  }
  run(RoundToBfloat16{p, staging.p, span});
  return staging.p;
}

}  // namespace mrnn::engine::cuda
