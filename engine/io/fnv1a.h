#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mrnn::engine {

// FNV-1a, 64 bits: a fast digest that tells a file changed or damaged since it was written from
// the one written (a checkpoint's payload, the project text some kept edits began from). Not a
// defence against anyone who means to forge one.
inline constexpr uint64_t kFnv1aStart = 14695981039346656037ull;

// The digest of `size` bytes at `data`, continuing from `digest` (a file read in pieces).
inline uint64_t fnv1a(const char* data, size_t size, uint64_t digest = kFnv1aStart) {
  for (size_t i = 0; i < size; ++i) {
    digest ^= static_cast<unsigned char>(data[i]);
    digest *= 1099511628211ull;
  }
  return digest;
}

inline uint64_t fnv1a(const std::string& bytes) {
  return fnv1a(bytes.data(), bytes.size());
}

}  // namespace mrnn::engine
