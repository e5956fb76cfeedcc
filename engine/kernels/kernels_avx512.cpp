// AVX-512 kernels (16 floats per register). Every function carries the target attribute, so
// this file is compiled for the baseline ISA and these run only when the CPU has avx512f.

#include "engine/kernels/kernel_sets.h"

#if defined(__x86_64__)

// GCC 12 reports its own AVX-512 intrinsics as (maybe) uninitialized once inlined (their
// _mm512_undefined_ps() initialises a variable with itself; GCC bug 105593, fixed in 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <immintrin.h>

#define MRNN_AVX512 __attribute__((target("avx512f")))

namespace mrnn::engine {
namespace {

// Four rows at a time: x is loaded once per 16 columns for four rows, and the four sums are
// independent chains. The last cols % 16 columns are read with a masked load.
MRNN_AVX512 void gemvAvx512(const float* w, int64_t rows, int64_t cols, const float* x, float* y,
                            bool accumulate) {
  const int64_t full = cols & ~int64_t{15};
  const auto tail = static_cast<__mmask16>((1u << (cols - full)) - 1u);
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float* w0 = w + r * cols;
    const float* w1 = w0 + cols;
    const float* w2 = w1 + cols;
    const float* w3 = w2 + cols;
    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
    __m512 a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
    for (int64_t k = 0; k < full; k += 16) {
      const __m512 xv = _mm512_loadu_ps(x + k);
      a0 = _mm512_fmadd_ps(_mm512_loadu_ps(w0 + k), xv, a0);
      a1 = _mm512_fmadd_ps(_mm512_loadu_ps(w1 + k), xv, a1);
      a2 = _mm512_fmadd_ps(_mm512_loadu_ps(w2 + k), xv, a2);
      a3 = _mm512_fmadd_ps(_mm512_loadu_ps(w3 + k), xv, a3);
    }
    if (tail) {
      const __m512 xv = _mm512_maskz_loadu_ps(tail, x + full);
      a0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w0 + full), xv, a0);
      a1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w1 + full), xv, a1);
      a2 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w2 + full), xv, a2);
      a3 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w3 + full), xv, a3);
    }
    const float s[4] = {_mm512_reduce_add_ps(a0), _mm512_reduce_add_ps(a1),
                        _mm512_reduce_add_ps(a2), _mm512_reduce_add_ps(a3)};
    for (int i = 0; i < 4; ++i) y[r + i] = accumulate ? y[r + i] + s[i] : s[i];
  }
  for (; r < rows; ++r) {
    const float* w0 = w + r * cols;
    __m512 a0 = _mm512_setzero_ps();
    for (int64_t k = 0; k < full; k += 16) {
      a0 = _mm512_fmadd_ps(_mm512_loadu_ps(w0 + k), _mm512_loadu_ps(x + k), a0);
    }
    if (tail) {
      a0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w0 + full),
                           _mm512_maskz_loadu_ps(tail, x + full), a0);
    }
    const float s = _mm512_reduce_add_ps(a0);
    y[r] = accumulate ? y[r] + s : s;
  }
}

// exp(x) for x <= 88 (Cephes expf): x = n ln2 + r with |r| <= ln2 / 2, a degree-7
// polynomial for exp(r), then scaled by 2^n. Below -87.3 the result stays at the smallest
// normal float (~1e-38) rather than going subnormal; callers add it to 1 or sum it.
MRNN_AVX512 inline __m512 exp512(__m512 x) {
  // Operand order keeps NaN: max/min return their second operand when either is NaN.
  x = _mm512_min_ps(_mm512_set1_ps(88.0f), _mm512_max_ps(_mm512_set1_ps(-87.3f), x));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_scalef_ps(p, n);
}

MRNN_AVX512 inline __m512 absolute512(__m512 v) {
  return _mm512_castsi512_ps(
      _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff)));
}

// sigmoid(v) = 1 / (1 + e) for v >= 0 and e / (1 + e) below, e = exp(-|v|): no overflow,
// and full relative precision in both tails.
MRNN_AVX512 inline __m512 sigmoid512(__m512 v) {
  const __m512 e = exp512(_mm512_sub_ps(_mm512_setzero_ps(), absolute512(v)));
  const __m512 s = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(_mm512_set1_ps(1.0f), e));
  const __mmask16 negative = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
  return _mm512_mask_mul_ps(s, negative, e, s);
}

// tanh(v) = sign(v) (1 - e) / (1 + e), e = exp(-2|v|). Near 0 the difference 1 - e loses
// relative precision; the absolute error stays below 1e-7.
MRNN_AVX512 inline __m512 tanh512(__m512 v) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 e = exp512(_mm512_mul_ps(_mm512_set1_ps(-2.0f), absolute512(v)));
  const __m512 t = _mm512_div_ps(_mm512_sub_ps(one, e), _mm512_add_ps(one, e));
  const __m512i sign = _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(INT32_MIN));
  return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(t), sign));
}

MRNN_AVX512 void sigmoidAvx512(float* values, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(values + i, sigmoid512(_mm512_loadu_ps(values + i)));
  if (i < n) {
    const auto mask = static_cast<__mmask16>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(values + i, mask, sigmoid512(_mm512_maskz_loadu_ps(mask, values + i)));
  }
}

MRNN_AVX512 void tanhAvx512(float* values, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(values + i, tanh512(_mm512_loadu_ps(values + i)));
  if (i < n) {
    const auto mask = static_cast<__mmask16>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(values + i, mask, tanh512(_mm512_maskz_loadu_ps(mask, values + i)));
  }
}

MRNN_AVX512 float sumExpAvx512(const float* values, int64_t n, float shift) {
  const __m512 s = _mm512_set1_ps(shift);
  __m512 sum = _mm512_setzero_ps();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    sum = _mm512_add_ps(sum, exp512(_mm512_sub_ps(_mm512_loadu_ps(values + i), s)));
  }
  if (i < n) {
    const auto mask = static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m512 e = exp512(_mm512_sub_ps(_mm512_maskz_loadu_ps(mask, values + i), s));
    sum = _mm512_add_ps(sum, _mm512_maskz_mov_ps(mask, e));
  }
  return _mm512_reduce_add_ps(sum);
}

}  // namespace

const KernelSet& avx512Kernels() {
  static const KernelSet set{gemvAvx512, sigmoidAvx512, tanhAvx512, sumExpAvx512};
  return set;
}

}  // namespace mrnn::engine

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // __x86_64__
