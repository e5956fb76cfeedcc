#pragma once

// The LSTM fused window's sizes, saved buffers and their shapes (window_saved.h says how these
// are used); the output gate outside. The Major-Minor LSTM runs it for each half.

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct LstmWindowSizes {
  int64_t T = 0;  // steps
  int64_t B = 0;  // rows (batch)
  int64_t H = 0;  // hidden units
};

template <typename Buffer>
struct LstmWindowSaved {
  Buffer wH;     // [4H, H]
  Buffer mask;   // [B, H] variational mask on h_{t-1}, or none
  Buffer hin;    // [T, B, H]: h_{t-1} * mask, as it enters W_h
  Buffer gates;  // [T, B, 4H]: i f o j, activated
  Buffer c;      // [T + 1, B, H]: c_0 .. c_T
  Buffer tanhC;  // [T, B, H]: tanh(c_1) .. tanh(c_T)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.wH, s.mask, s.hin, s.gates, s.c, s.tanhC);
  }
};

inline LstmWindowSaved<WindowShape> lstmWindowShapes(const LstmWindowSizes& s) {
  return {{4 * s.H, s.H},      {s.B, s.H},          {s.T, s.B, s.H},
          {s.T, s.B, 4 * s.H}, {s.T + 1, s.B, s.H}, {s.T, s.B, s.H}};
}

}  // namespace mrnn::engine
