#pragma once

// Sutskever's multiplicative RNN's fused window's sizes, inputs, outputs, saved buffers, gradients
// and their shapes (window_saved.h says how these are used): eqs. 7-8, m = (W_mx x) * (W_mh
// h_{t-1}), h = tanh(W_hx x + W_hm m + b).

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct MrnnWindowSizes {
  int64_t T = 0;                       // steps
  int64_t B = 0;                       // rows (batch)
  int64_t H = 0;                       // hidden units
  int64_t M = 0;                       // multiplicative (factor) units
  int64_t X() const { return M + H; }  // a row of the projections
};

template <typename Buffer>
struct MrnnWindowSaved {
  Buffer xp;    // [T, B, X]: the hoisted projections [W_mx x | W_hx x + b]
  Buffer wMh;   // [M, H]
  Buffer wHm;   // [H, M]
  Buffer mask;  // [B, H] variational mask on h_{t-1}, or none
  Buffer hin;   // [T, B, H]: h_{t-1} * mask, as it enters W_mh
  Buffer u;     // [T, B, M]: W_mh h_{t-1}
  Buffer m;     // [T, B, M]: (W_mx x) * u
  Buffer hs;    // [T, B, H]: the window's outputs (tanh's values)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.wMh, s.wHm, s.mask, s.hin, s.u, s.m, s.hs);
  }
};

inline MrnnWindowSaved<WindowShape> mrnnWindowShapes(const MrnnWindowSizes& s) {
  return {{s.T, s.B, s.X()}, {s.M, s.H},      {s.H, s.M},      {s.B, s.H},
          {s.T, s.B, s.H},   {s.T, s.B, s.M}, {s.T, s.B, s.M}, {s.T, s.B, s.H}};
}

// What the window takes, in the order its autograd node takes them.
template <typename Buffer>
struct MrnnWindowInputs {
  Buffer xp{};    // [T, B, X]: the hoisted projections [W_mx x | W_hx x + b]
  Buffer h0{};    // [B, H]
  Buffer wMh{};   // [M, H]
  Buffer wHm{};   // [H, M]
  Buffer mask{};  // [B, H] variational mask on h_{t-1}, or none

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.wMh, s.wHm, s.mask);
  }
};

// What the forward writes: the outputs and, window-sized, what the backward reads.
template <typename Buffer>
struct MrnnWindowOutputs {
  Buffer hs{};   // [T, B, H]; the final h is hs[T - 1]
  Buffer hin{};  // [T, B, H]: h_{t-1} * mask
  Buffer u{};    // [T, B, M]: W_mh hin
  Buffer m{};    // [T, B, M]: (W_mx x) * u

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.hs, s.hin, s.u, s.m);
  }
};

// What the backward writes.
template <typename Buffer>
struct MrnnWindowGradients {
  Buffer dh{};    // [B, H] in: the final h's gradient (zeros for none); out: h0's
  Buffer dXp{};   // out [T, B, X]: [dXm | dPre]
  Buffer dU{};    // workspace [T, B, M]: du per step, kept for dW_mh
  Buffer dM{};    // workspace [B, M]
  Buffer dWmh{};  // out [M, H] (overwritten)
  Buffer dWhm{};  // out [H, M] (overwritten)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.dh, s.dXp, s.dU, s.dM, s.dWmh, s.dWhm);
  }
};

// The mRNN window as the one GPU autograd function reads it (window_saved.h).
struct MrnnWindow : WindowTypes<MrnnWindowSizes, MrnnWindowInputs, MrnnWindowOutputs,
                                MrnnWindowSaved, MrnnWindowGradients> {
  static constexpr bool kCarriesCell = false;

  template <typename Tensor>
  static Sizes sizesOf(const Inputs<Tensor>& in) {
    return {in.xp.size(0), in.xp.size(1), in.h0.size(1), in.wMh.size(0)};
  }
  static Inputs<WindowShape> inputShapes(const Sizes& s) {
    const auto k = mrnnWindowShapes(s);
    return {k.xp, {s.B, s.H}, k.wMh, k.wHm, k.mask};
  }
  static Outputs<WindowShape> outputShapes(const Sizes& s) {
    const auto k = mrnnWindowShapes(s);
    return {k.hs, k.hin, k.u, k.m};
  }
  static Gradients<WindowShape> gradientShapes(const Sizes& s) {
    const auto in = inputShapes(s);
    return {in.h0, in.xp, {s.T, s.B, s.M}, {s.B, s.M}, in.wMh, in.wHm};
  }
  template <typename In, typename Out>
  static Saved<In> saved(const Inputs<In>& in, const Outputs<Out>& out) {
    return {in.xp, in.wMh, in.wHm, in.mask, out.hin, out.u, out.m, out.hs};
  }
  template <typename B>
  static Inputs<B> inputGradients(const Gradients<B>& g) {
    return {g.dXp, g.dh, g.dWmh, g.dWhm, B{}};
  }
};

}  // namespace mrnn::engine
