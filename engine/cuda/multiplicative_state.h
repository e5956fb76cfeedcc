#pragma once

// The multiplicative intermediate state the mLSTM and the mGRU windows share (Krause et al.
// 2016 eq. 18; Maupome & Meurs eq. 25): per step m = (W_mx x) * (h_in W_mh^T), with W_mx x
// hoisted into the first M columns of each row of xp; its backward; and W_mh's gradient over
// the whole window.

#include <cstdint>

#include "engine/cuda/window_ops.h"

namespace mrnn::engine::cuda {

struct MultiplicativeState {
  int64_t B = 0, H = 0, M = 0;
  int64_t X = 0;                // the row width of xp and dXp; W_mx x is their first M columns
  const float* wMh = nullptr;   // [M, H]
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1}, or null
  const char* what = "";        // names the products in errors
};

// One step: hin = mask * hPrev, u = hin W_mh^T, m = xp[:, :M] * u (rows of B).
void multiplicativeStateForward(const MultiplicativeState& s, const float* hPrev, const float* xpT,
                                float* hinT, float* uT, float* mT, WindowOps& ops);

// The same step on a state that is already masked (hin given, nothing copied): u and m only.
void multiplicativeProduct(const MultiplicativeState& s, const float* hinT, const float* xpT,
                           float* uT, float* mT, WindowOps& ops);

// One step back from dm: dXp[:, :M] = dm * u, du = dm * xp[:, :M], and dHin = du W_mh
// (overwritten, or added to dHin when accumulate: the true mGRU's h reaches W_mh twice; the
// mask is the caller's to apply).
void multiplicativeStateBackward(const MultiplicativeState& s, const float* dm, const float* xpT,
                                 const float* uT, float* dXpT, float* dUT, float* dHin,
                                 WindowOps& ops, bool accumulate = false);

// dW_mh = dU^T hin over `rows` rows (T x B): one product for the window.
void multiplicativeWeightGradient(const MultiplicativeState& s, int64_t rows, const float* dU,
                                  const float* hin, float* dWmh, WindowOps& ops);

}  // namespace mrnn::engine::cuda
