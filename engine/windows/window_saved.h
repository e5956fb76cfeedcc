#pragma once

// One shape for every fused window's knowledge of itself (one <cell>_window_layout.h each):
//  - <Cell>WindowSizes: the window's dimensions;
//  - <Cell>WindowSaved<Buffer>: what the forward pass keeps for the backward, one member per
//    buffer in the order it is saved, listed once by its static members(); Buffer is a LibTorch
//    tensor in the CPU windows and the GPU glue, a const float* in the GPU windows and their
//    tests, and WindowShape in the layout;
//  - <cell>WindowShapes(sizes): each saved buffer's shape.
// The CPU window (engine/models/fused_<cell>_window.cpp), the GPU window
// (engine/cuda/cuda_<cell>_window.*), the glue (engine/models/cuda_fused_<cell>_window.cpp)
// and the tests read these rather than counting positions. Plain C++: no LibTorch, no CUDA.

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace mrnn::engine {

using WindowShape = std::vector<int64_t>;

inline int64_t elementCount(const WindowShape& shape) {
  int64_t n = 1;
  for (const int64_t d : shape) n *= d;
  return n;
}

// Calls f on every member of a saved-buffer struct, in save order.
template <typename Saved, typename F>
void forEachSaved(Saved&& saved, F&& f) {
  std::apply([&](auto&... member) { (f(member), ...); }, std::decay_t<Saved>::members(saved));
}

namespace detail {
template <typename From, typename To, typename F, std::size_t... I>
void pairSaved(From& from, To& to, F& f, std::index_sequence<I...>) {
  (f(std::get<I>(from), std::get<I>(to)), ...);
}
}  // namespace detail

// Calls f(member of from, same member of to) for every member, in save order: two structs of
// one cell over different buffer types (tensors to pointers, shapes to allocations).
template <typename From, typename To, typename F>
void forEachSavedPair(From&& from, To&& to, F&& f) {
  auto a = std::decay_t<From>::members(from);
  auto b = std::decay_t<To>::members(to);
  static_assert(std::tuple_size_v<decltype(a)> == std::tuple_size_v<decltype(b)>);
  detail::pairSaved(a, b, f, std::make_index_sequence<std::tuple_size_v<decltype(a)>>{});
}

}  // namespace mrnn::engine
