#include "engine/inference/frozen_updates.h"

#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

void lstmFinish(float* pre, float* c, float* h, int64_t n, OutputGate gate) {
  sigmoidInPlace(pre, 3 * n);  // i, f, o are contiguous
  tanhInPlace(pre + 3 * n, n);
  const float* i = pre;
  const float* f = pre + n;
  const float* o = pre + 2 * n;
  const float* j = pre + 3 * n;
  for (int64_t k = 0; k < n; ++k) c[k] = f[k] * c[k] + i[k] * j[k];
  if (gate == OutputGate::Outside) {
    for (int64_t k = 0; k < n; ++k) h[k] = c[k];
    tanhInPlace(h, n);
    for (int64_t k = 0; k < n; ++k) h[k] = o[k] * h[k];
  } else {
    for (int64_t k = 0; k < n; ++k) h[k] = o[k] * c[k];
    tanhInPlace(h, n);
  }
}

void gruFinish(const float* z, const float* j, float* h, int64_t n) {
  for (int64_t k = 0; k < n; ++k) h[k] = (1.0f - z[k]) * h[k] + z[k] * j[k];
}

}  // namespace mrnn::engine
