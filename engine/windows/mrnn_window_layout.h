#pragma once

// Sutskever's multiplicative RNN's fused window's sizes, saved buffers and their shapes
// (window_saved.h says how these are used): eqs. 7-8, m = (W_mx x) * (W_mh h_{t-1}),
// h = tanh(W_hx x + W_hm m + b).

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

}  // namespace mrnn::engine
