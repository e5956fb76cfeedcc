// The portable kernels: plain loops, for builds without Highway (MRNN_HIGHWAY=OFF). They are
// also the reference the vector kernels are measured against.

#include <cmath>

#include "engine/kernels/kernel_sets.h"

namespace mrnn::engine {
namespace {

void gemvScalar(const float* w, int64_t rows, int64_t cols, const float* x, float* y,
                bool accumulate) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = w + r * cols;
    // Four partial sums: independent chains the CPU can overlap.
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    int64_t k = 0;
    for (; k + 4 <= cols; k += 4) {
      s0 += row[k] * x[k];
      s1 += row[k + 1] * x[k + 1];
      s2 += row[k + 2] * x[k + 2];
      s3 += row[k + 3] * x[k + 3];
    }
    for (; k < cols; ++k) s0 += row[k] * x[k];
    const float sum = (s0 + s1) + (s2 + s3);
    y[r] = accumulate ? y[r] + sum : sum;
  }
}

// Both forms read exp of a non-positive number only, so neither overflows.
void sigmoidScalar(float* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = values[i];
    const float e = std::exp(-std::fabs(v));
    const float s = 1.0f / (1.0f + e);
    values[i] = v >= 0.0f ? s : e * s;
  }
}

void tanhScalar(float* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) values[i] = std::tanh(values[i]);
}

float sumExpScalar(const float* values, int64_t n, float shift) {
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) sum += std::exp(values[i] - shift);
  return static_cast<float>(sum);
}

}  // namespace

const KernelSet& scalarKernels() {
  static const KernelSet set{gemvScalar, sigmoidScalar, tanhScalar, sumExpScalar, nullptr, nullptr};
  return set;
}

}  // namespace mrnn::engine
