#pragma once

// The true mLSTM fused window's sizes, inputs, outputs, saved buffers, gradients and their shapes
// (window_saved.h says how these are used). Maupome & Meurs eqs. 14-17: one intermediate state per
// gate, the output gate outside.

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct TmlstmWindowSizes {
  int64_t T = 0;                             // steps
  int64_t B = 0;                             // rows (batch)
  int64_t H = 0;                             // hidden units
  int64_t M = 0;                             // multiplicative units per gate
  int64_t N() const { return 4 * M; }        // a row of u and m: i f o j, M each
  int64_t X() const { return N() + 4 * H; }  // a row of xp: [W_mx x (4M) | W_x x + b (4H)]
};

template <typename Buffer>
struct TmlstmWindowSaved {
  Buffer xp;     // [T, B, X]: the hoisted projections [W_mx x (i f o j) | W_x x + b (i f o j)]
  Buffer wMh;    // [4M, H]: W_mh,i .. W_mh,j stacked
  Buffer v;      // [4, H, M]: V_i .. V_j
  Buffer mask;   // [B, H] variational mask on h_{t-1}, or none
  Buffer hin;    // [T, B, H]: h_{t-1} * mask, as it enters W_mh
  Buffer u;      // [T, B, 4M]: W_mh hin, gate-major
  Buffer m;      // [T, B, 4M]: (W_mx x) * u
  Buffer gates;  // [T, B, 4H]: i f o j, activated
  Buffer c;      // [T + 1, B, H]: c_0 .. c_T
  Buffer tanhC;  // [T, B, H]: tanh(c_1) .. tanh(c_T)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.wMh, s.v, s.mask, s.hin, s.u, s.m, s.gates, s.c, s.tanhC);
  }
};

inline TmlstmWindowSaved<WindowShape> tmlstmWindowShapes(const TmlstmWindowSizes& s) {
  return {{s.T, s.B, s.X()},   {s.N(), s.H},      {4, s.H, s.M},     {s.B, s.H},
          {s.T, s.B, s.H},     {s.T, s.B, s.N()}, {s.T, s.B, s.N()}, {s.T, s.B, 4 * s.H},
          {s.T + 1, s.B, s.H}, {s.T, s.B, s.H}};
}

// What the window takes, in the order its autograd node takes them.
template <typename Buffer>
struct TmlstmWindowInputs {
  Buffer xp{};    // [T, B, X]: [W_mx x (i f o j, M each) | W_x x + b (i f o j)]
  Buffer h0{};    // [B, H]
  Buffer c0{};    // [B, H]
  Buffer wMh{};   // [4M, H]: W_mh,i .. W_mh,j stacked
  Buffer v{};     // [4, H, M]: V_i .. V_j
  Buffer mask{};  // [B, H] variational mask on h_{t-1}, or none

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.c0, s.wMh, s.v, s.mask);
  }
};

// What the forward writes: the outputs and, window-sized, what the backward reads.
template <typename Buffer>
struct TmlstmWindowOutputs {
  Buffer hs{};     // [T, B, H]; the final h is hs[T - 1]
  Buffer c{};      // [T + 1, B, H]: c_0 (a copy of c0) .. c_T, the final c
  Buffer hin{};    // [T, B, H]: h_{t-1} * mask
  Buffer u{};      // [T, B, 4M]: W_mh hin, gate-major
  Buffer m{};      // [T, B, 4M]: (W_mx x) * u
  Buffer gates{};  // [T, B, 4H]: i f o j, activated
  Buffer tanhC{};  // [T, B, H]

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.hs, s.c, s.hin, s.u, s.m, s.gates, s.tanhC);
  }
};

// What the backward writes.
template <typename Buffer>
struct TmlstmWindowGradients {
  Buffer dh{};    // [B, H] in: the final h's gradient (zeros for none); out: h0's
  Buffer dc{};    // [B, H] in: the final c's gradient (zeros for none); out: c0's
  Buffer dXp{};   // out [T, B, X]: [dXm | dGates] (pre-activations)
  Buffer dU{};    // workspace [T, B, 4M]: du per step, kept for dW_mh
  Buffer dM{};    // workspace [B, 4M]
  Buffer dWmh{};  // out [4M, H] (overwritten)
  Buffer dV{};    // out [4, H, M] (overwritten)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.dh, s.dc, s.dXp, s.dU, s.dM, s.dWmh, s.dV);
  }
};

// The true mLSTM window as the one GPU autograd function reads it (window_saved.h).
struct TmlstmWindow : WindowTypes<TmlstmWindowSizes, TmlstmWindowInputs, TmlstmWindowOutputs,
                                  TmlstmWindowSaved, TmlstmWindowGradients> {
  static constexpr bool kCarriesCell = true;

  template <typename Tensor>
  static Sizes sizesOf(const Inputs<Tensor>& in) {
    return {in.xp.size(0), in.xp.size(1), in.h0.size(1), in.v.size(2)};
  }
  static Inputs<WindowShape> inputShapes(const Sizes& s) {
    const auto k = tmlstmWindowShapes(s);
    return {k.xp, {s.B, s.H}, {s.B, s.H}, k.wMh, k.v, k.mask};
  }
  static Outputs<WindowShape> outputShapes(const Sizes& s) {
    const auto k = tmlstmWindowShapes(s);
    return {{s.T, s.B, s.H}, k.c, k.hin, k.u, k.m, k.gates, k.tanhC};
  }
  static Gradients<WindowShape> gradientShapes(const Sizes& s) {
    const auto in = inputShapes(s);
    return {in.h0, in.c0, in.xp, {s.T, s.B, s.N()}, {s.B, s.N()}, in.wMh, in.v};
  }
  template <typename In, typename Out>
  static Saved<In> saved(const Inputs<In>& in, const Outputs<Out>& out) {
    return {in.xp, in.wMh, in.v, in.mask, out.hin, out.u, out.m, out.gates, out.c, out.tanhC};
  }
  template <typename B>
  static Inputs<B> inputGradients(const Gradients<B>& g) {
    return {g.dXp, g.dh, g.dc, g.dWmh, g.dV, B{}};
  }
};

}  // namespace mrnn::engine
