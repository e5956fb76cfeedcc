#pragma once

#include <cstdint>
#include <random>

namespace mrnn::engine {

// Random draws that give the same numbers on every machine and standard library: generated
// data sets (the reverse copy task, the long-range problems) are defined by their seed.
// <random>'s distributions are not (their algorithms differ between libraries); mt19937_64
// itself is.

// splitmix64 (Steele et al. 2014): spreads nearby (seed, stream) pairs over the whole state,
// so seed 1's valid stream is unrelated to seed 2's train stream.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in [0, bound) without modulo bias: draws below 2^64 mod bound are rejected, which
// leaves a whole number of copies of [0, bound).
inline int64_t uniformBelow(std::mt19937_64& random, uint64_t bound) {
  const uint64_t threshold = (0 - bound) % bound;
  while (true) {
    const uint64_t draw = random();
    if (draw >= threshold) return static_cast<int64_t>(draw % bound);
  }
}

// Uniform in [0, 1): the top 53 bits of one draw.
inline double uniformUnit(std::mt19937_64& random) {
  return static_cast<double>(random() >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace mrnn::engine
