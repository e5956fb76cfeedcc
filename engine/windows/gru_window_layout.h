#pragma once

// The GRU fused window's sizes, inputs, outputs, saved buffers, gradients and their shapes
// (window_saved.h says how these are used).

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct GruWindowSizes {
  int64_t T = 0;  // steps
  int64_t B = 0;  // rows (batch)
  int64_t H = 0;  // hidden units
};

template <typename Buffer>
struct GruWindowSaved {
  Buffer h0;     // [B, H]
  Buffer wZr;    // [2H, H]
  Buffer wH;     // [H, H]
  Buffer mask;   // [B, H] variational mask on h_{t-1} where it enters W_zr, or none
  Buffer hin;    // [T, B, H]: h_{t-1} * mask
  Buffer gates;  // [T, B, 3H]: z r j, activated
  Buffer rh;     // [T, B, H]: r * hin, as it enters W_h
  Buffer hs;     // [T, B, H]: the window's outputs, h_{t-1} for the update's gradient

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.h0, s.wZr, s.wH, s.mask, s.hin, s.gates, s.rh, s.hs);
  }
};

inline GruWindowSaved<WindowShape> gruWindowShapes(const GruWindowSizes& s) {
  return {{s.B, s.H},      {2 * s.H, s.H},      {s.H, s.H},      {s.B, s.H},
          {s.T, s.B, s.H}, {s.T, s.B, 3 * s.H}, {s.T, s.B, s.H}, {s.T, s.B, s.H}};
}

// What the window takes, in the order its autograd node takes them.
template <typename Buffer>
struct GruWindowInputs {
  Buffer xp{};    // [T, B, 3H]: the hoisted U x + b, rows z r j
  Buffer h0{};    // [B, H]
  Buffer wZr{};   // [2H, H]
  Buffer wH{};    // [H, H]
  Buffer mask{};  // [B, H] variational mask on h_{t-1} where it enters W_zr, or none

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.wZr, s.wH, s.mask);
  }
};

// What the forward writes: the outputs and, window-sized, what the backward reads.
template <typename Buffer>
struct GruWindowOutputs {
  Buffer hs{};     // [T, B, H]; the final h is hs[T - 1]
  Buffer hin{};    // [T, B, H]: h_{t-1} * mask
  Buffer gates{};  // [T, B, 3H]: z r j, activated
  Buffer rh{};     // [T, B, H]: r * hin, as it enters W_h

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.hs, s.hin, s.gates, s.rh);
  }
};

// What the backward writes.
template <typename Buffer>
struct GruWindowGradients {
  Buffer dh{};      // [B, H] in: the final h's gradient (zeros for none); out: h0's
  Buffer dXp{};     // out [T, B, 3H]: the pre-activations' gradients (= xp's)
  Buffer dhStep{};  // workspace [B, H]
  Buffer dRh{};     // workspace [B, H]
  Buffer dHin{};    // workspace [B, H]
  Buffer dWzr{};    // out [2H, H] (overwritten)
  Buffer dWh{};     // out [H, H] (overwritten)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.dh, s.dXp, s.dhStep, s.dRh, s.dHin, s.dWzr, s.dWh);
  }
};

// The GRU window as the one GPU autograd function reads it (window_saved.h).
struct GruWindow : WindowTypes<GruWindowSizes, GruWindowInputs, GruWindowOutputs, GruWindowSaved,
                               GruWindowGradients> {
  static constexpr bool kCarriesCell = false;

  template <typename Tensor>
  static Sizes sizesOf(const Inputs<Tensor>& in) {
    return {in.xp.size(0), in.xp.size(1), in.h0.size(1)};
  }
  static Inputs<WindowShape> inputShapes(const Sizes& s) {
    const auto k = gruWindowShapes(s);
    return {{s.T, s.B, 3 * s.H}, k.h0, k.wZr, k.wH, k.mask};
  }
  static Outputs<WindowShape> outputShapes(const Sizes& s) {
    const auto k = gruWindowShapes(s);
    return {k.hs, k.hin, k.gates, k.rh};
  }
  static Gradients<WindowShape> gradientShapes(const Sizes& s) {
    const auto in = inputShapes(s);
    return {in.h0, in.xp, {s.B, s.H}, {s.B, s.H}, {s.B, s.H}, in.wZr, in.wH};
  }
  template <typename In, typename Out>
  static Saved<In> saved(const Inputs<In>& in, const Outputs<Out>& out) {
    return {in.h0, in.wZr, in.wH, in.mask, out.hin, out.gates, out.rh, out.hs};
  }
  template <typename B>
  static Inputs<B> inputGradients(const Gradients<B>& g) {
    return {g.dXp, g.dh, g.dWzr, g.dWh, B{}};
  }
};

}  // namespace mrnn::engine
