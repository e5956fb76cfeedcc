#pragma once

// The true mLSTM fused window's sizes, saved buffers and their shapes (window_saved.h says how
// these are used). Maupome & Meurs eqs. 14-17: one intermediate state per gate, the output
// gate outside.

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

}  // namespace mrnn::engine
