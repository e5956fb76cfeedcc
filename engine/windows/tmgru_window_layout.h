#pragma once

// The true mGRU fused window's sizes, saved buffers and their shapes (window_saved.h says how
// these are used). Maupome & Meurs eqs. 22-24: one intermediate state per gate, the
// candidate's read through r * h.

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

}  // namespace mrnn::engine
