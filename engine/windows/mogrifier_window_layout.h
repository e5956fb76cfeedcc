#pragma once

// Where the Mogrifier window keeps its rounds (Melis et al. 2019 eq. 1), shared by the CPU
// window (fused_mogrifier_window.cpp) and the GPU one (engine/cuda/cuda_mogrifier_window.h):
// the per-round buffers are round-major ([slots, T, B, width]) so that one round's rows over
// the whole window are one contiguous [T*B, width] block, the operand of that round's weight
// gradient, a single product at the end of backward. Plain C++ (no LibTorch).

#include <cstdint>
#include <vector>

namespace mrnn::engine {

struct MogrifierWindowLayout {
  int64_t T = 0, B = 0, I = 0, H = 0;
  int64_t rounds = 0;
  int64_t rank = 0;  // 0: full round matrices
  bool zigzag = true;

  // Round i gates x (odd i: Q^i, [I, H]) or h (even i: R^i, [H, I]).
  static bool odd(int64_t i) { return i % 2 == 1; }
  int64_t rows(int64_t i) const { return odd(i) ? I : H; }  // the width it writes
  int64_t cols(int64_t i) const { return odd(i) ? H : I; }  // the width it reads
  int64_t oddRounds() const { return (rounds + 1) / 2; }
  int64_t evenRounds() const { return rounds / 2; }
  // Round i's slot in the x-side buffers (odd i) or the h-side gate buffers (even i).
  static int64_t slot(int64_t i) { return odd(i) ? (i - 1) / 2 : i / 2 - 1; }
  // The rows of step t in slot s of a [slots, T, B, width] buffer.
  template <typename F>
  F* at(F* base, int64_t s, int64_t t, int64_t width) const {
    return base + (s * T + t) * B * width;
  }
};

// The round matrices' data, round i at i - 1: full ([rows(i), cols(i)]) when the layout's
// rank is 0, else left ([rows(i), rank]) and right ([rank, cols(i)]).
struct MogrifierRoundMatrices {
  std::vector<const float*> full, left, right;
};

}  // namespace mrnn::engine
