#pragma once

// The plain RNN's fused window's sizes, inputs, outputs, saved buffers, gradients and their shapes
// (window_saved.h says how these are used): h = tanh(W_hx x + b + W_hh h_{t-1}).

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct RnnWindowSizes {
  int64_t T = 0;  // steps
  int64_t B = 0;  // rows (batch)
  int64_t H = 0;  // hidden units
};

template <typename Buffer>
struct RnnWindowSaved {
  Buffer wHh;   // [H, H]
  Buffer mask;  // [B, H] variational mask on h_{t-1}, or none
  Buffer hin;   // [T, B, H]: h_{t-1} * mask, as it enters W_hh
  Buffer hs;    // [T, B, H]: the window's outputs (tanh's values)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.wHh, s.mask, s.hin, s.hs);
  }
};

inline RnnWindowSaved<WindowShape> rnnWindowShapes(const RnnWindowSizes& s) {
  return {{s.H, s.H}, {s.B, s.H}, {s.T, s.B, s.H}, {s.T, s.B, s.H}};
}

// What the window takes, in the order its autograd node takes them.
template <typename Buffer>
struct RnnWindowInputs {
  Buffer xp{};    // [T, B, H]: the hoisted W_hx x + b
  Buffer h0{};    // [B, H]
  Buffer wHh{};   // [H, H]
  Buffer mask{};  // [B, H] variational mask on h_{t-1}, or none

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.wHh, s.mask);
  }
};

// What the forward writes: the outputs and, window-sized, what the backward reads.
template <typename Buffer>
struct RnnWindowOutputs {
  Buffer hs{};   // [T, B, H]; the final h is hs[T - 1]
  Buffer hin{};  // [T, B, H]: h_{t-1} * mask, as it enters W_hh

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.hs, s.hin);
  }
};

// What the backward writes.
template <typename Buffer>
struct RnnWindowGradients {
  Buffer dh{};    // [B, H] in: the final h's gradient (zeros for none); out: h0's
  Buffer dXp{};   // out [T, B, H]: the pre-activations' gradients (= xp's)
  Buffer dWhh{};  // out [H, H] (overwritten)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.dh, s.dXp, s.dWhh);
  }
};

// The plain RNN window as the one GPU autograd function reads it (window_saved.h).
struct RnnWindow : WindowTypes<RnnWindowSizes, RnnWindowInputs, RnnWindowOutputs, RnnWindowSaved,
                               RnnWindowGradients> {
  static constexpr bool kCarriesCell = false;

  template <typename Tensor>
  static Sizes sizesOf(const Inputs<Tensor>& in) {
    return {in.xp.size(0), in.xp.size(1), in.h0.size(1)};
  }
  static Inputs<WindowShape> inputShapes(const Sizes& s) {
    const auto k = rnnWindowShapes(s);
    return {{s.T, s.B, s.H}, {s.B, s.H}, k.wHh, k.mask};
  }
  static Outputs<WindowShape> outputShapes(const Sizes& s) {
    const auto k = rnnWindowShapes(s);
    return {k.hs, k.hin};
  }
  static Gradients<WindowShape> gradientShapes(const Sizes& s) {
    const auto in = inputShapes(s);
    return {in.h0, in.xp, in.wHh};
  }
  template <typename In, typename Out>
  static Saved<In> saved(const Inputs<In>& in, const Outputs<Out>& out) {
    return {in.wHh, in.mask, out.hin, out.hs};
  }
  template <typename B>
  static Inputs<B> inputGradients(const Gradients<B>& g) {
    return {g.dXp, g.dh, g.dWhh, B{}};
  }
};

}  // namespace mrnn::engine
