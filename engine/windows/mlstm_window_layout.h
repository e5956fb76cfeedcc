#pragma once

// The mLSTM fused window's sizes, inputs, outputs, saved buffers, gradients and their shapes
// (window_saved.h says how these are used). Krause et al. eqs. 17-21, the output gate outside.

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct MlstmWindowSizes {
  int64_t T = 0;                           // steps
  int64_t B = 0;                           // rows (batch)
  int64_t H = 0;                           // hidden units
  int64_t M = 0;                           // multiplicative units
  int64_t X() const { return M + 4 * H; }  // a row of the projections
};

template <typename Buffer>
struct MlstmWindowSaved {
  Buffer xp;     // [T, B, X]: the hoisted projections [W_mx x | W_x x + b]
  Buffer wMh;    // [M, H]
  Buffer wM;     // [4H, M]
  Buffer mask;   // [B, H] variational mask on h_{t-1}, or none
  Buffer hin;    // [T, B, H]: h_{t-1} * mask, as it enters W_mh
  Buffer u;      // [T, B, M]: W_mh h_{t-1}
  Buffer m;      // [T, B, M]: (W_mx x) * u
  Buffer gates;  // [T, B, 4H]: i f o j, activated
  Buffer c;      // [T + 1, B, H]: c_0 .. c_T
  Buffer tanhC;  // [T, B, H]: tanh(c_1) .. tanh(c_T)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.wMh, s.wM, s.mask, s.hin, s.u, s.m, s.gates, s.c, s.tanhC);
  }
};

inline MlstmWindowSaved<WindowShape> mlstmWindowShapes(const MlstmWindowSizes& s) {
  return {{s.T, s.B, s.X()},   {s.M, s.H},      {4 * s.H, s.M},  {s.B, s.H},
          {s.T, s.B, s.H},     {s.T, s.B, s.M}, {s.T, s.B, s.M}, {s.T, s.B, 4 * s.H},
          {s.T + 1, s.B, s.H}, {s.T, s.B, s.H}};
}

// What the window takes, in the order its autograd node takes them.
template <typename Buffer>
struct MlstmWindowInputs {
  Buffer xp{};    // [T, B, X]: the hoisted projections [W_mx x | W_x x + b]
  Buffer h0{};    // [B, H]
  Buffer c0{};    // [B, H]
  Buffer wMh{};   // [M, H]
  Buffer wM{};    // [4H, M]
  Buffer mask{};  // [B, H] variational mask on h_{t-1}, or none

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.c0, s.wMh, s.wM, s.mask);
  }
};

// What the forward writes: the outputs and, window-sized, what the backward reads.
template <typename Buffer>
struct MlstmWindowOutputs {
  Buffer hs{};     // [T, B, H]; the final h is hs[T - 1]
  Buffer c{};      // [T + 1, B, H]: c_0 (a copy of c0) .. c_T, the final c
  Buffer hin{};    // [T, B, H]: h_{t-1} * mask, as it enters W_mh
  Buffer u{};      // [T, B, M]: W_mh h_{t-1}
  Buffer m{};      // [T, B, M]: (W_mx x) * u
  Buffer gates{};  // [T, B, 4H]: i f o j, activated
  Buffer tanhC{};  // [T, B, H]: tanh(c_1) .. tanh(c_T)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.hs, s.c, s.hin, s.u, s.m, s.gates, s.tanhC);
  }
};

// What the backward writes.
template <typename Buffer>
struct MlstmWindowGradients {
  Buffer dh{};    // [B, H] in: the gradient reaching the final h (zeros for none); out: h0's
  Buffer dc{};    // [B, H] in: the gradient reaching the final c (zeros for none); out: c0's
  Buffer dXp{};   // out [T, B, X]: [dXm | dGates], dGates of the gates' pre-activations
  Buffer dU{};    // workspace [T, B, M]: du per step, kept for dW_mh
  Buffer dM{};    // workspace [B, M]
  Buffer dWmh{};  // out [M, H] (overwritten, not accumulated)
  Buffer dWm{};   // out [4H, M] (overwritten, not accumulated)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.dh, s.dc, s.dXp, s.dU, s.dM, s.dWmh, s.dWm);
  }
};

// The mLSTM window as the one GPU autograd function reads it (window_saved.h).
struct MlstmWindow : WindowTypes<MlstmWindowSizes, MlstmWindowInputs, MlstmWindowOutputs,
                                 MlstmWindowSaved, MlstmWindowGradients> {
  static constexpr bool kCarriesCell = true;

  template <typename Tensor>
  static Sizes sizesOf(const Inputs<Tensor>& in) {
    return {in.xp.size(0), in.xp.size(1), in.h0.size(1), in.wMh.size(0)};
  }
  static Inputs<WindowShape> inputShapes(const Sizes& s) {
    const auto k = mlstmWindowShapes(s);
    return {k.xp, {s.B, s.H}, {s.B, s.H}, k.wMh, k.wM, k.mask};
  }
  static Outputs<WindowShape> outputShapes(const Sizes& s) {
    const auto k = mlstmWindowShapes(s);
    return {{s.T, s.B, s.H}, k.c, k.hin, k.u, k.m, k.gates, k.tanhC};
  }
  static Gradients<WindowShape> gradientShapes(const Sizes& s) {
    const auto in = inputShapes(s);
    return {in.h0, in.c0, in.xp, {s.T, s.B, s.M}, {s.B, s.M}, in.wMh, in.wM};
  }
  template <typename In, typename Out>
  static Saved<In> saved(const Inputs<In>& in, const Outputs<Out>& out) {
    return {in.xp, in.wMh, in.wM, in.mask, out.hin, out.u, out.m, out.gates, out.c, out.tanhC};
  }
  template <typename B>
  static Inputs<B> inputGradients(const Gradients<B>& g) {
    return {g.dXp, g.dh, g.dc, g.dWmh, g.dWm, B{}};
  }
};

}  // namespace mrnn::engine
