#pragma once

#include <torch/types.h>

namespace mrnn::engine {

// The loss a model's outputs [T, B, ·] incur at each step, [T, B]: −log p(target) for a model
// that predicts symbols (its outputs are log-probabilities, targets [T, B] ids), and
// ½ Σ_o (y_o − target_o)² for a linear output (targetValues [T, B, O]). Every training and
// evaluation path scores through this one definition.
torch::Tensor stepLoss(const torch::Tensor& outputs, const torch::Tensor& targets,
                       const torch::Tensor& targetValues, bool symbols);

// The Gauss-Newton matrix of that loss in the outputs, times an output tangent ȯ: for
// log-probabilities l, p ⊙ l̇ (J_lᵀ diag(p) J_l is the softmax's Jᵀ(diag(p) − ppᵀ)J at the
// logits, and the Fisher matrix of a Mixture of Softmaxes); for squared error, ȯ itself.
torch::Tensor lossCurvature(const torch::Tensor& outputs, const torch::Tensor& tangent,
                            bool symbols);

}  // namespace mrnn::engine
