#pragma once

// The mLSTM fused window's sizes, saved buffers and their shapes (window_saved.h says how
// these are used). Krause et al. eqs. 17-21, the output gate outside.

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

}  // namespace mrnn::engine
