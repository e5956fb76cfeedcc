#pragma once

// The mGRU fused window's sizes, saved buffers and their shapes (window_saved.h says how these
// are used). Maupome & Meurs eqs. 25-27, one intermediate state m shared by the gates.

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

}  // namespace mrnn::engine
