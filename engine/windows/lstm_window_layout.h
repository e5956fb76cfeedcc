#pragma once

// The LSTM fused window's sizes, inputs, outputs, saved buffers, gradients and their shapes
// (window_saved.h says how these are used); the output gate outside. The Major-Minor LSTM runs it
// for each half.

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct LstmWindowSizes {
  int64_t T = 0;  // steps
  int64_t B = 0;  // rows (batch)
  int64_t H = 0;  // hidden units
};

template <typename Buffer>
struct LstmWindowSaved {
  Buffer wH;     // [4H, H]
  Buffer mask;   // [B, H] variational mask on h_{t-1}, or none
  Buffer hin;    // [T, B, H]: h_{t-1} * mask, as it enters W_h
  Buffer gates;  // [T, B, 4H]: i f o j, activated
  Buffer c;      // [T + 1, B, H]: c_0 .. c_T
  Buffer tanhC;  // [T, B, H]: tanh(c_1) .. tanh(c_T)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.wH, s.mask, s.hin, s.gates, s.c, s.tanhC);
  }
};

inline LstmWindowSaved<WindowShape> lstmWindowShapes(const LstmWindowSizes& s) {
  return {{4 * s.H, s.H},      {s.B, s.H},          {s.T, s.B, s.H},
          {s.T, s.B, 4 * s.H}, {s.T + 1, s.B, s.H}, {s.T, s.B, s.H}};
}

// What the window takes, in the order its autograd node takes them.
template <typename Buffer>
struct LstmWindowInputs {
  Buffer xp{};    // [T, B, 4H]: the hoisted W_x x + b
  Buffer h0{};    // [B, H]
  Buffer c0{};    // [B, H]
  Buffer wH{};    // [4H, H]
  Buffer mask{};  // [B, H] variational mask on h_{t-1}, or none

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.c0, s.wH, s.mask);
  }
};

// What the forward writes: the outputs and, window-sized, what the backward reads.
template <typename Buffer>
struct LstmWindowOutputs {
  Buffer hs{};     // [T, B, H]; the final h is hs[T - 1]
  Buffer c{};      // [T + 1, B, H]: c_0 (a copy of c0) .. c_T, the final c
  Buffer hin{};    // [T, B, H]: h_{t-1} * mask, as it enters W_h
  Buffer gates{};  // [T, B, 4H]: i f o j, activated
  Buffer tanhC{};  // [T, B, H]

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.hs, s.c, s.hin, s.gates, s.tanhC);
  }
};

// What the backward writes.
template <typename Buffer>
struct LstmWindowGradients {
  Buffer dh{};   // [B, H] in: the final h's gradient (zeros for none); out: h0's
  Buffer dc{};   // [B, H] in: the final c's gradient (zeros for none); out: c0's
  Buffer dXp{};  // out [T, B, 4H]: the pre-activations' gradients (= xp's)
  Buffer dWh{};  // out [4H, H] (overwritten)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.dh, s.dc, s.dXp, s.dWh);
  }
};

// The LSTM window as the one GPU autograd function reads it (window_saved.h).
struct LstmWindow : WindowTypes<LstmWindowSizes, LstmWindowInputs, LstmWindowOutputs,
                                LstmWindowSaved, LstmWindowGradients> {
  static constexpr bool kCarriesCell = true;

  template <typename Tensor>
  static Sizes sizesOf(const Inputs<Tensor>& in) {
    return {in.xp.size(0), in.xp.size(1), in.h0.size(1)};
  }
  static Inputs<WindowShape> inputShapes(const Sizes& s) {
    const auto k = lstmWindowShapes(s);
    return {{s.T, s.B, 4 * s.H}, {s.B, s.H}, {s.B, s.H}, k.wH, k.mask};
  }
  static Outputs<WindowShape> outputShapes(const Sizes& s) {
    const auto k = lstmWindowShapes(s);
    return {{s.T, s.B, s.H}, k.c, k.hin, k.gates, k.tanhC};
  }
  static Gradients<WindowShape> gradientShapes(const Sizes& s) {
    const auto in = inputShapes(s);
    return {in.h0, in.c0, in.xp, in.wH};
  }
  template <typename In, typename Out>
  static Saved<In> saved(const Inputs<In>& in, const Outputs<Out>& out) {
    return {in.wH, in.mask, out.hin, out.gates, out.c, out.tanhC};
  }
  template <typename B>
  static Inputs<B> inputGradients(const Gradients<B>& g) {
    return {g.dXp, g.dh, g.dc, g.dWh, B{}};
  }
};

}  // namespace mrnn::engine
