#pragma once

// One shape for every fused window's knowledge of itself (one <cell>_window_layout.h each):
//  - <Cell>WindowSizes: the window's dimensions;
//  - <Cell>WindowInputs, <Cell>WindowOutputs, <Cell>WindowSaved, <Cell>WindowGradients, each
//    over a Buffer type: what the window takes (in its autograd node's order, the mask last),
//    what the forward writes, what it keeps for the backward (in save order) and what the
//    backward writes (the carried state gradients dh (and dc), each input's gradient,
//    workspaces); one member per buffer, listed once by a static members(). Buffer is a
//    LibTorch tensor in the CPU windows and the glue, a float pointer in the GPU windows and
//    their tests, and WindowShape for the shapes;
//  - <cell>WindowShapes(sizes): each saved buffer's shape;
//  - <Cell>Window, the descriptor the one GPU autograd Function
//    (engine/models/gpu_window_function.h) is written against: the sizes from the inputs,
//    every struct's shapes, the saved buffers from the inputs and outputs, each input's
//    gradient, and whether the window carries a cell state (c0 in, the final c out).
// The CPU window (engine/models/fused_<cell>_window.cpp), the GPU window
// (engine/cuda/cuda_<cell>_window.*, engine/cuda/window_buffers.h), the glue and the tests
// read these rather than counting positions. Plain C++: no LibTorch, no CUDA.

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

// The types a cell's descriptor (<Cell>Window) names, for it to inherit.
template <typename SizesType, template <typename> class InputsType,
          template <typename> class OutputsType, template <typename> class SavedType,
          template <typename> class GradientsType>
struct WindowTypes {
  using Sizes = SizesType;
  template <typename B>
  using Inputs = InputsType<B>;
  template <typename B>
  using Outputs = OutputsType<B>;
  template <typename B>
  using Saved = SavedType<B>;
  template <typename B>
  using Gradients = GradientsType<B>;
};

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
