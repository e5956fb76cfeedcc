#pragma once

#include <torch/types.h>

#include <cstdint>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The tanh cells' windows under forward-mode differentiation at `level` (TangentMode): the
// primal `known` where the caller has it (the curvature product's kept forward,
// TangentMode::knownOutput), else by the fused window where it applies (else a plain loop);
// then the tangent
// (J v: every input's tangent carried through the window), returned as dual tensors. What does
// not depend on the previous step is hoisted out of the loop: the weights' tangents times the
// (known) primal states are one product over the whole window, so each step is one product
// per recurrent matrix and a few element-wise passes, against the per-step loop's dual
// arithmetic (every operation twice, each with its own dispatch). Any dtype and device.
//
// RNN: h_t = tanh(xp_t + (h_{t-1} ⊙ mask) W_hhᵀ);
// dh_t = (1 − h_t²) ⊙ (dxp_t + hin_t dW_hhᵀ + (dh_{t-1} ⊙ mask) W_hhᵀ).
FusedWindowResult rnnTangentWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                   const torch::Tensor& wHh, const torch::Tensor& mask,
                                   uint64_t level, const torch::Tensor& known = {});

// mRNN (Sutskever et al. eqs. 7-9), xp = [W_mx x | W_hx x + b]: u_t = hin_t W_mhᵀ,
// m_t = (W_mx x)_t ⊙ u_t, h_t = tanh((W_hx x + b)_t + m_t W_hmᵀ); the tangent by the product
// rule through each.
FusedWindowResult mrnnTangentWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                    const torch::Tensor& wMh, const torch::Tensor& wHm,
                                    const torch::Tensor& mask, uint64_t level,
                                    const torch::Tensor& known = {});

}  // namespace mrnn::engine
