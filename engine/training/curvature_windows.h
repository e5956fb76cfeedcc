#pragma once

#include <torch/types.h>

#include <functional>
#include <vector>

#include "engine/models/language_model.h"
#include "engine/models/window_masks.h"

namespace mrnn::engine {

// One window of the curvature share, as this rank holds it: its streams' inputs, targets and
// loss mask [T, b], the state they start from (fixed) and their dropout masks (replayed).
struct CurvatureWindow {
  torch::Tensor inputs;
  torch::Tensor targets;
  torch::Tensor mask;          // undefined: every target counts
  torch::Tensor values;        // [T, b, F] real inputs (the addition problem), or undefined
  torch::Tensor targetValues;  // [T, b, O] real targets, or undefined
  ModelState start;
  WindowMasks masks;
};

// The curvature share of one update, prepared for its many curvature products (a
// Hessian-free step runs up to hundreds). The forward pass at the update's weights runs once
// with its autograd graph kept: every product's backward (Jᵀ) goes through it. The forward
// derivative (J v) comes from forward-mode automatic differentiation: for the tanh cells
// their tangent windows (engine/models/tangent_windows.h), for the others the per-step loop,
// whose every operation has a forward derivative (the fused windows have a backward only).
//
// The Gauss-Newton matrix of the loss L = (1/N) Σ −log p(target), N the counted targets: for
// a softmax output with logits z and probabilities p, Jᵀ (diag(p) − p pᵀ) J. Written on the
// log-probabilities l = z − logsumexp(z) it is J_lᵀ diag(p) J_l (the two are equal), which
// also holds for a Mixture of Softmaxes, whose output is l itself: there it is the Fisher
// matrix. A linear output's squared error has H = I: Jᵀ J (output_loss.h). Masked targets
// count nowhere.
//
// Structural damping (Martens & Sutskever 2011) adds the Gauss-Newton matrix of a distance D
// between each layer's hidden output h at every step and its value at the update's weights:
// S = (1/N) Σ J_hᵀ D'' J_h. For the tanh cells (RNN, mRNN), D is tanh's matching loss, whose
// Hessian in the pre-activation a is diag(1 − h²): D'' = diag(1/(1 − h²)) in h. For the other
// cells, whose output is not one tanh, D = ½‖Δh‖² (D'' = I). docs/training.md says why.
class CurvatureWindows {
 public:
  // `count`: N, the curvature share's counted targets over every rank. `poll` is called
  // between windows (it may throw to abandon the computation: a stop request).
  CurvatureWindows(LanguageModel& model, std::vector<CurvatureWindow> windows, double count,
                   std::function<void()> poll = {});

  // (G + structural S) v over this rank's streams (the caller sums over ranks); v flat over
  // `parameters` (the model's, in order).
  torch::Tensor product(const std::vector<torch::Tensor>& parameters, const torch::Tensor& v,
                        double structural);
  // Σ over this rank's sequences of (d/dθ Σ_t −log p)² / N, flat: each sequence's gradient
  // (over every curvature window it spans) squared elementwise.
  torch::Tensor squaredGradients(const std::vector<torch::Tensor>& parameters);
  // The loss (1/N) Σ −log p over this rank's streams at the current weights, no gradient.
  double loss();

 private:
  struct Linearised {
    torch::Tensor outputs;              // [T, b, V] log-probabilities (or [T, b, O]), kept graph
    std::vector<torch::Tensor> hidden;  // each layer's h [T, b, H], in the kept graph
  };
  // The forward pass at the current weights, graph kept: once, and again when a weight was
  // written since (an update rule that tried a step and put the weights back).
  void linearise(const std::vector<torch::Tensor>& parameters);
  // Σ over the window's counted steps of the loss of `outputs`.
  torch::Tensor maskedLoss(const torch::Tensor& outputs, const CurvatureWindow& window) const;
  torch::Tensor forward(CurvatureWindow& window, WindowMasks& masks,
                        std::vector<torch::Tensor>* hidden);

  void poll() const {
    if (poll_) poll_();
  }

  LanguageModel& model_;
  std::vector<CurvatureWindow> windows_;
  double count_;
  std::function<void()> poll_;
  bool symbols_;  // the model predicts symbols (log-probabilities), not real numbers
  std::vector<Linearised> linearised_;
  std::vector<int64_t> versions_;  // the weights' versions the kept graph was made at
  std::vector<bool> tanhLayers_;   // layers whose output is one tanh (matching-loss damping)
};

}  // namespace mrnn::engine
