// AVX2 + FMA kernels (8 floats per register), for x86-64 CPUs without AVX-512. Every
// function carries the target attribute; see kernel_sets.h.

#include "engine/kernels/kernel_sets.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define MRNN_AVX2 __attribute__((target("avx2,fma")))

namespace mrnn::engine {
namespace {

// Lanes [0, count) set, for masked loads of the last count < 8 floats.
MRNN_AVX2 inline __m256i firstLanes(int64_t count) {
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), index);
}

MRNN_AVX2 inline float sum256(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Four rows at a time, as the AVX-512 version; masked loads for the last cols % 8 columns.
MRNN_AVX2 void gemvAvx2(const float* w, int64_t rows, int64_t cols, const float* x, float* y,
                        bool accumulate) {
  const int64_t full = cols & ~int64_t{7};
  const int64_t rest = cols - full;
  const __m256i tail = firstLanes(rest);
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float* w0 = w + r * cols;
    const float* w1 = w0 + cols;
    const float* w2 = w1 + cols;
    const float* w3 = w2 + cols;
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
    for (int64_t k = 0; k < full; k += 8) {
      const __m256 xv = _mm256_loadu_ps(x + k);
      a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w0 + k), xv, a0);
      a1 = _mm256_fmadd_ps(_mm256_loadu_ps(w1 + k), xv, a1);
      a2 = _mm256_fmadd_ps(_mm256_loadu_ps(w2 + k), xv, a2);
      a3 = _mm256_fmadd_ps(_mm256_loadu_ps(w3 + k), xv, a3);
    }
    if (rest) {
      const __m256 xv = _mm256_maskload_ps(x + full, tail);
      a0 = _mm256_fmadd_ps(_mm256_maskload_ps(w0 + full, tail), xv, a0);
      a1 = _mm256_fmadd_ps(_mm256_maskload_ps(w1 + full, tail), xv, a1);
      a2 = _mm256_fmadd_ps(_mm256_maskload_ps(w2 + full, tail), xv, a2);
      a3 = _mm256_fmadd_ps(_mm256_maskload_ps(w3 + full, tail), xv, a3);
    }
    const float s[4] = {sum256(a0), sum256(a1), sum256(a2), sum256(a3)};
    for (int i = 0; i < 4; ++i) y[r + i] = accumulate ? y[r + i] + s[i] : s[i];
  }
  for (; r < rows; ++r) {
    const float* w0 = w + r * cols;
    __m256 a0 = _mm256_setzero_ps();
    for (int64_t k = 0; k < full; k += 8) {
      a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w0 + k), _mm256_loadu_ps(x + k), a0);
    }
    if (rest) {
      a0 = _mm256_fmadd_ps(_mm256_maskload_ps(w0 + full, tail), _mm256_maskload_ps(x + full, tail),
                           a0);
    }
    const float s = sum256(a0);
    y[r] = accumulate ? y[r] + s : s;
  }
}

// exp(x) for x <= 88, as exp512 in kernels_avx512.cpp; 2^n is built in the exponent bits
// (n lies in [-126, 127] after the clamp).
MRNN_AVX2 inline __m256 exp256(__m256 x) {
  x = _mm256_min_ps(_mm256_set1_ps(88.0f), _mm256_max_ps(_mm256_set1_ps(-87.3f), x));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i bits =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(bits));
}

MRNN_AVX2 inline __m256 absolute256(__m256 v) {
  return _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
}

MRNN_AVX2 inline __m256 sigmoid256(__m256 v) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 e = exp256(_mm256_sub_ps(_mm256_setzero_ps(), absolute256(v)));
  const __m256 s = _mm256_div_ps(one, _mm256_add_ps(one, e));
  const __m256 negative = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ);
  return _mm256_blendv_ps(s, _mm256_mul_ps(e, s), negative);
}

MRNN_AVX2 inline __m256 tanh256(__m256 v) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 e = exp256(_mm256_mul_ps(_mm256_set1_ps(-2.0f), absolute256(v)));
  const __m256 t = _mm256_div_ps(_mm256_sub_ps(one, e), _mm256_add_ps(one, e));
  const __m256 sign = _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(INT32_MIN)));
  return _mm256_or_ps(t, sign);
}

MRNN_AVX2 void sigmoidAvx2(float* values, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(values + i, sigmoid256(_mm256_loadu_ps(values + i)));
  if (i < n) {
    const __m256i mask = firstLanes(n - i);
    _mm256_maskstore_ps(values + i, mask, sigmoid256(_mm256_maskload_ps(values + i, mask)));
  }
}

MRNN_AVX2 void tanhAvx2(float* values, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(values + i, tanh256(_mm256_loadu_ps(values + i)));
  if (i < n) {
    const __m256i mask = firstLanes(n - i);
    _mm256_maskstore_ps(values + i, mask, tanh256(_mm256_maskload_ps(values + i, mask)));
  }
}

MRNN_AVX2 float sumExpAvx2(const float* values, int64_t n, float shift) {
  const __m256 s = _mm256_set1_ps(shift);
  __m256 sum = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    sum = _mm256_add_ps(sum, exp256(_mm256_sub_ps(_mm256_loadu_ps(values + i), s)));
  }
  if (i < n) {
    const __m256i mask = firstLanes(n - i);
    const __m256 e = exp256(_mm256_sub_ps(_mm256_maskload_ps(values + i, mask), s));
    sum = _mm256_add_ps(sum, _mm256_and_ps(e, _mm256_castsi256_ps(mask)));
  }
  return sum256(sum);
}

}  // namespace

const KernelSet& avx2Kernels() {
  static const KernelSet set{gemvAvx2, sigmoidAvx2, tanhAvx2, sumExpAvx2};
  return set;
}

}  // namespace mrnn::engine

#endif  // __x86_64__
