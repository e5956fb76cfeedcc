#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace mrnn::engine {

// Allocates on 64-byte boundaries: a cache line, and one AVX-512 register, so a row that
// starts a buffer never splits a vector load across two lines.
template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};

  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}

  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, kAlignment); }

  template <typename U>
  bool operator==(const CacheLineAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const CacheLineAllocator<U>&) const {
    return false;
  }
};

// The float buffers of the inference path: weights, tables, state and scratch.
using AlignedFloats = std::vector<float, CacheLineAllocator<float>>;

}  // namespace mrnn::engine
