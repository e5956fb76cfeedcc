#pragma once

// The true mGRU fused window's sizes, inputs, outputs, saved buffers, gradients and their shapes
// (window_saved.h says how these are used). Maupome & Meurs eqs. 22-24: one intermediate state per
// gate, the candidate's read through r * h.

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct TmgruWindowSizes {
  int64_t T = 0;                               // steps
  int64_t B = 0;                               // rows (batch)
  int64_t H = 0;                               // hidden units
  int64_t M = 0;                               // multiplicative units per gate
  int64_t X() const { return 3 * M + 3 * H; }  // a row of xp: [W_mx x (z r h) | U x + b (z r j)]
};

// The states of z and r (from the masked h) and the candidate's (from r * h) are kept apart:
// each is one multiplicative state of its own width.
template <typename Buffer>
struct TmgruWindowSaved {
  Buffer xp;     // [T, B, X]: the hoisted projections [W_mx x (z r h, M each) | U x + b (z r j)]
  Buffer h0;     // [B, H]
  Buffer wMhZr;  // [2M, H]: W_mh,z; W_mh,r
  Buffer wMhH;   // [M, H]
  Buffer v;      // [3, H, M]: V_z, V_r, V_h
  Buffer mask;   // [B, H] variational mask on h_{t-1} (not in the update), or none
  Buffer hin;    // [T, B, H]: h_{t-1} * mask, as it enters W_mh_zr
  Buffer uZr;    // [T, B, 2M]: W_mh_zr hin
  Buffer mZr;    // [T, B, 2M]: m_z, m_r: (W_mx x) * u
  Buffer gates;  // [T, B, 3H]: z r j, activated
  Buffer rh;     // [T, B, H]: r * hin, as it enters W_mh_h
  Buffer uH;     // [T, B, M]: W_mh_h (r * hin)
  Buffer mH;     // [T, B, M]: m_h
  Buffer hs;     // [T, B, H]: the window's outputs, h_{t-1} for the update's gradient

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.wMhZr, s.wMhH, s.v, s.mask, s.hin, s.uZr, s.mZr, s.gates, s.rh,
                    s.uH, s.mH, s.hs);
  }
};

inline TmgruWindowSaved<WindowShape> tmgruWindowShapes(const TmgruWindowSizes& s) {
  return {{s.T, s.B, s.X()},   {s.B, s.H},          {2 * s.M, s.H},  {s.M, s.H},
          {3, s.H, s.M},       {s.B, s.H},          {s.T, s.B, s.H}, {s.T, s.B, 2 * s.M},
          {s.T, s.B, 2 * s.M}, {s.T, s.B, 3 * s.H}, {s.T, s.B, s.H}, {s.T, s.B, s.M},
          {s.T, s.B, s.M},     {s.T, s.B, s.H}};
}

// What the window takes, in the order its autograd node takes them.
template <typename Buffer>
struct TmgruWindowInputs {
  Buffer xp{};     // [T, B, X]: [W_mx x (z r h, M each) | U x + b (z r j, H each)]
  Buffer h0{};     // [B, H]
  Buffer wMhZr{};  // [2M, H]: W_mh,z; W_mh,r
  Buffer wMhH{};   // [M, H]
  Buffer v{};      // [3, H, M]: V_z, V_r, V_h
  Buffer mask{};   // [B, H] variational mask on h_{t-1} (not in the update), or none

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.xp, s.h0, s.wMhZr, s.wMhH, s.v, s.mask);
  }
};

// What the forward writes: the outputs and, window-sized, what the backward reads.
template <typename Buffer>
struct TmgruWindowOutputs {
  Buffer hs{};     // [T, B, H]; the final h is hs[T - 1]
  Buffer hin{};    // [T, B, H]: h_{t-1} * mask
  Buffer uZr{};    // [T, B, 2M]: W_mh_zr hin
  Buffer mZr{};    // [T, B, 2M]: m_z, m_r
  Buffer gates{};  // [T, B, 3H]: z r j, activated
  Buffer rh{};     // [T, B, H]: r * hin, as it enters W_mh_h
  Buffer uH{};     // [T, B, M]: W_mh_h (r * hin)
  Buffer mH{};     // [T, B, M]: m_h

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.hs, s.hin, s.uZr, s.mZr, s.gates, s.rh, s.uH, s.mH);
  }
};

// What the backward writes.
template <typename Buffer>
struct TmgruWindowGradients {
  Buffer dh{};      // [B, H] in: the final h's gradient (zeros for none); out: h0's
  Buffer dXp{};     // out [T, B, X]: [dXm (z r h) | dz dr dj] (pre-activations)
  Buffer dUZr{};    // workspace [T, B, 2M], kept for dW_mh_zr
  Buffer dUH{};     // workspace [T, B, M], kept for dW_mh_h
  Buffer dMZr{};    // workspace [B, 2M]
  Buffer dMH{};     // workspace [B, M]
  Buffer dhStep{};  // workspace [B, H]
  Buffer dHin{};    // workspace [B, H]
  Buffer dWmhZr{};  // out [2M, H] (overwritten)
  Buffer dWmhH{};   // out [M, H] (overwritten)
  Buffer dV{};      // out [3, H, M] (overwritten)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.dh, s.dXp, s.dUZr, s.dUH, s.dMZr, s.dMH, s.dhStep, s.dHin, s.dWmhZr, s.dWmhH,
                    s.dV);
  }
};

// The true mGRU window as the one GPU autograd function reads it (window_saved.h).
struct TmgruWindow : WindowTypes<TmgruWindowSizes, TmgruWindowInputs, TmgruWindowOutputs,
                                 TmgruWindowSaved, TmgruWindowGradients> {
  static constexpr bool kCarriesCell = false;

  template <typename Tensor>
  static Sizes sizesOf(const Inputs<Tensor>& in) {
    return {in.xp.size(0), in.xp.size(1), in.h0.size(1), in.wMhH.size(0)};
  }
  static Inputs<WindowShape> inputShapes(const Sizes& s) {
    const auto k = tmgruWindowShapes(s);
    return {k.xp, k.h0, k.wMhZr, k.wMhH, k.v, k.mask};
  }
  static Outputs<WindowShape> outputShapes(const Sizes& s) {
    const auto k = tmgruWindowShapes(s);
    return {k.hs, k.hin, k.uZr, k.mZr, k.gates, k.rh, k.uH, k.mH};
  }
  static Gradients<WindowShape> gradientShapes(const Sizes& s) {
    const auto in = inputShapes(s);
    return {in.h0,      in.xp,      {s.T, s.B, 2 * s.M}, {s.T, s.B, s.M}, {s.B, 2 * s.M},
            {s.B, s.M}, {s.B, s.H}, {s.B, s.H},          in.wMhZr,        in.wMhH,
            in.v};
  }
  template <typename In, typename Out>
  static Saved<In> saved(const Inputs<In>& in, const Outputs<Out>& out) {
    return {in.xp,   in.h0,   in.wMhZr,  in.wMhH, in.v,   in.mask, out.hin,
            out.uZr, out.mZr, out.gates, out.rh,  out.uH, out.mH,  out.hs};
  }
  template <typename B>
  static Inputs<B> inputGradients(const Gradients<B>& g) {
    return {g.dXp, g.dh, g.dWmhZr, g.dWmhH, g.dV, B{}};
  }
};

}  // namespace mrnn::engine
