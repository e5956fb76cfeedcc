#pragma once

#include <cstdint>
#include <vector>

namespace mrnn::engine {

// IEEE 754 binary16 conversion for compact probe traces. Written out by hand so that the
// result structs stay free of LibTorch; round to nearest, ties to even, as LibTorch does.
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);

std::vector<uint16_t> toHalf(const std::vector<float>& values);
std::vector<float> fromHalf(const std::vector<uint16_t>& values);

}  // namespace mrnn::engine
