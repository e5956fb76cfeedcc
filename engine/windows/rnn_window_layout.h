#pragma once

// The plain RNN's fused window's sizes, saved buffers and their shapes (window_saved.h says how
// these are used): h = tanh(W_hx x + b + W_hh h_{t-1}).

#include <cstdint>
#include <tuple>

#include "engine/windows/window_saved.h"

namespace mrnn::engine {

struct RnnWindowSizes {
  int64_t T = 0;  // steps
  int64_t B = 0;  // rows (batch)
  int64_t H = 0;  // hidden units
};

template <typename Buffer>
struct RnnWindowSaved {
  Buffer wHh;   // [H, H]
  Buffer mask;  // [B, H] variational mask on h_{t-1}, or none
  Buffer hin;   // [T, B, H]: h_{t-1} * mask, as it enters W_hh
  Buffer hs;    // [T, B, H]: the window's outputs (tanh's values)

  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.wHh, s.mask, s.hin, s.hs);
  }
};

inline RnnWindowSaved<WindowShape> rnnWindowShapes(const RnnWindowSizes& s) {
  return {{s.H, s.H}, {s.B, s.H}, {s.T, s.B, s.H}, {s.T, s.B, s.H}};
}

}  // namespace mrnn::engine
