#pragma once

// The GRU fused window's sizes, saved buffers and their shapes (window_saved.h says how these
// are used).

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct GruWindowSizes {
  int64_t T = 0;  // steps
  int64_t B = 0;  // rows (batch)
  int64_t H = 0;  // hidden units
};

template <typename Buffer>
struct GruWindowSaved {
  Buffer h0;     // [B, H]
  Buffer wZr;    // [2H, H]
  Buffer wH;     // [H, H]
  Buffer mask;   // [B, H] variational mask on h_{t-1} where it enters W_zr, or none
  Buffer hin;    // [T, B, H]: h_{t-1} * mask
  Buffer gates;  // [T, B, 3H]: z r j, activated
  Buffer rh;     // [T, B, H]: r * hin, as it enters W_h
  Buffer hs;     // [T, B, H]: the window's outputs, h_{t-1} for the update's gradient

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.h0, s.wZr, s.wH, s.mask, s.hin, s.gates, s.rh, s.hs);
  }
};

inline GruWindowSaved<WindowShape> gruWindowShapes(const GruWindowSizes& s) {
  return {{s.B, s.H},      {2 * s.H, s.H},      {s.H, s.H},      {s.B, s.H},
          {s.T, s.B, s.H}, {s.T, s.B, 3 * s.H}, {s.T, s.B, s.H}, {s.T, s.B, s.H}};
}

}  // namespace mrnn::engine
