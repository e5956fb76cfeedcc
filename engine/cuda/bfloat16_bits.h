#pragma once

// bfloat16 as its 16 bits, on the host and in CUDA kernels alike: the upper half of a float32,
// rounded to nearest with ties to even (as LibTorch's and CUDA's conversions round). cuBLAS
// reads these bits as __nv_bfloat16; the tests' host products read them back with floatOf.

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define MRNN_BFLOAT16_FUNCTION __host__ __device__ inline
#else
#define MRNN_BFLOAT16_FUNCTION inline
#endif

namespace mrnn::engine::cuda {

using Bfloat16Bits = uint16_t;

MRNN_BFLOAT16_FUNCTION uint32_t bitsOfFloat(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
#endif
}

MRNN_BFLOAT16_FUNCTION Bfloat16Bits bfloat16Of(float x) {
  const uint32_t bits = bitsOfFloat(x);
  if ((bits & 0x7fffffffu) > 0x7f800000u) {
    return static_cast<Bfloat16Bits>((bits >> 16) | 0x0040u);  // NaN stays NaN, made quiet
  }
  // Adding 0x7fff, plus one when the kept half is odd, carries into it exactly when the
  // dropped half is above one half, or equal to it with an odd kept half. Infinities stay.
  const uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<Bfloat16Bits>((bits + rounding) >> 16);
}

MRNN_BFLOAT16_FUNCTION float floatOf(Bfloat16Bits b) {
  const uint32_t bits = uint32_t{b} << 16;
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
#endif
}

}  // namespace mrnn::engine::cuda
