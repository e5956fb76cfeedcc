#pragma once

// The mGRU fused window's sizes, inputs, outputs, saved buffers, gradients and their shapes
// (window_saved.h says how these are used). Maupome & Meurs eqs. 25-27, one intermediate state m
// shared by the gates.

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct MgruWindowSizes {
  int64_t T = 0;                           // steps
  int64_t B = 0;                           // rows (batch)
  int64_t H = 0;                           // hidden units
  int64_t M = 0;                           // multiplicative units
  int64_t G() const { return 2 * H + M; }  // a row of gates: [z (H) | r (M) | j (H)]
  int64_t X() const { return M + G(); }    // a row of xp: [W_mx x | the gates' U x + b]
};

template <typename Buffer>
struct MgruWindowSaved {
  Buffer xp;     // [T, B, X]: the hoisted projections [W_mx x | U x + b]
  Buffer h0;     // [B, H]
  Buffer wMh;    // [M, H]
  Buffer vZr;    // [H + M, M]: V_z; V_r
  Buffer vH;     // [H, M]
  Buffer mask;   // [B, H] variational mask on h_{t-1} where it enters W_mh, or none
  Buffer hin;    // [T, B, H]: h_{t-1} * mask
  Buffer u;      // [T, B, M]: W_mh hin
  Buffer m;      // [T, B, M]: (W_mx x) * u
  Buffer gates;  // [T, B, G]: z r j, activated
  Buffer rm;     // [T, B, M]: r * m, as it enters V_h
  Buffer hs;     // [T, B, H]: the window's outputs, h_{t-1} for the update's gradient

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.wMh, s.vZr, s.vH, s.mask, s.hin, s.u, s.m, s.gates, s.rm, s.hs);
  }
};

inline MgruWindowSaved<WindowShape> mgruWindowShapes(const MgruWindowSizes& s) {
  return {{s.T, s.B, s.X()}, {s.B, s.H},        {s.M, s.H},      {s.H + s.M, s.M},
          {s.H, s.M},        {s.B, s.H},        {s.T, s.B, s.H}, {s.T, s.B, s.M},
          {s.T, s.B, s.M},   {s.T, s.B, s.G()}, {s.T, s.B, s.M}, {s.T, s.B, s.H}};
}

// What the window takes, in the order its autograd node takes them.
template <typename Buffer>
struct MgruWindowInputs {
  Buffer xp{};    // [T, B, M + G]: [W_mx x | U x + b]
  Buffer h0{};    // [B, H]
  Buffer wMh{};   // [M, H]
  Buffer vZr{};   // [H + M, M]: V_z; V_r
  Buffer vH{};    // [H, M]
  Buffer mask{};  // [B, H] variational mask on h_{t-1} where it enters W_mh, or none

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.wMh, s.vZr, s.vH, s.mask);
  }
};

// What the forward writes: the outputs and, window-sized, what the backward reads.
template <typename Buffer>
struct MgruWindowOutputs {
  Buffer hs{};     // [T, B, H]; the final h is hs[T - 1]
  Buffer hin{};    // [T, B, H]: h_{t-1} * mask
  Buffer u{};      // [T, B, M]: W_mh hin
  Buffer m{};      // [T, B, M]: (W_mx x) * u
  Buffer gates{};  // [T, B, G]: z r j, activated
  Buffer rm{};     // [T, B, M]: r * m, as it enters V_h

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.hs, s.hin, s.u, s.m, s.gates, s.rm);
  }
};

// What the backward writes.
template <typename Buffer>
struct MgruWindowGradients {
  Buffer dh{};      // [B, H] in: the final h's gradient (zeros for none); out: h0's
  Buffer dXp{};     // out [T, B, M + G]: [dXm | dz dr dj] (pre-activations)
  Buffer dU{};      // workspace [T, B, M]: du per step, kept for dW_mh
  Buffer dM{};      // workspace [B, M]
  Buffer dhStep{};  // workspace [B, H]
  Buffer dHin{};    // workspace [B, H]
  Buffer dWmh{};    // out [M, H] (overwritten)
  Buffer dVzr{};    // out [H + M, M] (overwritten)
  Buffer dVh{};     // out [H, M] (overwritten)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.dh, s.dXp, s.dU, s.dM, s.dhStep, s.dHin, s.dWmh, s.dVzr, s.dVh);
  }
};

// The mGRU window as the one GPU autograd function reads it (window_saved.h).
struct MgruWindow : WindowTypes<MgruWindowSizes, MgruWindowInputs, MgruWindowOutputs,
                                MgruWindowSaved, MgruWindowGradients> {
  static constexpr bool kCarriesCell = false;

  template <typename Tensor>
  static Sizes sizesOf(const Inputs<Tensor>& in) {
    return {in.xp.size(0), in.xp.size(1), in.h0.size(1), in.wMh.size(0)};
  }
  static Inputs<WindowShape> inputShapes(const Sizes& s) {
    const auto k = mgruWindowShapes(s);
    return {k.xp, k.h0, k.wMh, k.vZr, k.vH, k.mask};
  }
  static Outputs<WindowShape> outputShapes(const Sizes& s) {
    const auto k = mgruWindowShapes(s);
    return {k.hs, k.hin, k.u, k.m, k.gates, k.rm};
  }
  static Gradients<WindowShape> gradientShapes(const Sizes& s) {
    const auto in = inputShapes(s);
    return {in.h0,      in.xp,  {s.T, s.B, s.M}, {s.B, s.M}, {s.B, s.H},
            {s.B, s.H}, in.wMh, in.vZr,          in.vH};
  }
  template <typename In, typename Out>
  static Saved<In> saved(const Inputs<In>& in, const Outputs<Out>& out) {
    return {in.xp,   in.h0, in.wMh, in.vZr,    in.vH,  in.mask,
            out.hin, out.u, out.m,  out.gates, out.rm, out.hs};
  }
  template <typename B>
  static Inputs<B> inputGradients(const Gradients<B>& g) {
    return {g.dXp, g.dh, g.dWmh, g.dVzr, g.dVh, B{}};
  }
};

}  // namespace mrnn::engine
