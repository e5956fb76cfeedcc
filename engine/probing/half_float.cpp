#include "engine/probing/half_float.h"

#include <cmath>
#include <cstring>

namespace mrnn::engine {

uint16_t floatToHalf(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<uint32_t>((bits >> 16) & 0x8000u);
  const auto exponent = static_cast<int32_t>((bits >> 23) & 0xffu);
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) {  // infinity stays infinity, NaN stays a (quiet) NaN
    return static_cast<uint16_t>(sign | 0x7c00u | (mantissa != 0 ? 0x200u : 0u));
  }
  const int32_t halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow
  if (halfExponent <= 0) {
    // Subnormal half (or zero): the value is m * 2^-24.
    if (halfExponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    const auto shift = static_cast<uint32_t>(14 - halfExponent);
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1u);
    const uint32_t middle = 1u << (shift - 1u);
    if (rest > middle || (rest == middle && (half & 1u) != 0)) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(halfExponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  // A carry out of the mantissa correctly bumps the exponent (up to infinity).
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;
  return static_cast<uint16_t>(sign | half);
}

float halfToFloat(uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return negative ? -magnitude : magnitude;
  }
  uint32_t out = (negative ? 0x80000000u : 0u);
  if (exponent == 0x1f) {
    out |= 0x7f800000u | (mantissa << 13);
  } else {
    out |= ((exponent + 112u) << 23) | (mantissa << 13);
  }
  float value = 0.0f;
  std::memcpy(&value, &out, sizeof value);
  return value;
}

std::vector<uint16_t> toHalf(const std::vector<float>& values) {
  std::vector<uint16_t> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = floatToHalf(values[i]);
  return out;
}

std::vector<float> fromHalf(const std::vector<uint16_t>& values) {
  std::vector<float> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = halfToFloat(values[i]);
  return out;
}

}  // namespace mrnn::engine
