#pragma once

#include <torch/nn/module.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/config/model_config.h"
#include "engine/models/cell_state.h"
#include "engine/models/probe_recorder.h"
#include "engine/models/recurrent_weight.h"

namespace mrnn::engine {

// A cell's input projection as the affine map it is: projectInputs(x, e) = x A^T + e B^T + c
// with A = fromInput [K, I], B = fromEmbedding [K, E] and c = bias [K]. An undefined
// fromInput is the identity (K = I), an undefined fromEmbedding or bias is zero. The
// single-stream inference path (engine/inference) folds it into per-symbol tables.
struct InputAffine {
  torch::Tensor fromInput;
  torch::Tensor fromEmbedding;
  torch::Tensor bias;
};

// One recurrent layer of the zoo. A cell splits its step into the part that depends only on
// the input, projectInputs(), computed for a whole window as one matrix product, and the
// part that depends on the previous state, recur(), run once per time step. forward() runs a
// window; step() is forward() over one time step, so "sequence equals repeated steps" holds
// by construction of the cell and is still tested for each.
//
// Parameter names and gate orders are documented in docs/cells.md; the tests read weights
// by these names to check each cell against the papers' equations.
class RecurrentCell : public torch::nn::Module {
 public:
  RecurrentCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  const LayerConfig& config() const { return config_; }
  int64_t inputSize() const { return inputSize_; }
  int64_t embeddingSize() const { return embeddingSize_; }
  int64_t outputSize() const { return config_.hiddenSize; }

  // Zero state for a batch; the number of parts is statePartCount().
  CellState initialState(int64_t batch, const torch::TensorOptions& options) const;
  virtual int statePartCount() const = 0;
  // Whether h is a single tanh of a pre-activation (the RNN and the mRNN): structural damping
  // then measures a change of h by tanh's matching loss (curvature_windows.h).
  virtual bool tanhOutput() const { return false; }
  // Names of the probes this cell records, in order (docs/cells.md).
  virtual std::vector<std::string> probeNames() const = 0;

  // Initialises every parameter: input matrices uniform +-1/sqrt(fan in), recurrent
  // matrices scaled orthogonal (or uniform), biases zero, forget-gate biases init.forgetBias.
  virtual void resetParameters(const InitConfig& init) = 0;

  // Weights on the recurrent path, counted from the built parameters.
  int64_t recurrentWeightCount() const;

  // projectInputs() as an affine map; tests check the two agree for every cell.
  virtual InputAffine inputAffine() const = 0;
  // projectInputs() itself, for those tests.
  torch::Tensor inputProjection(const torch::Tensor& x, const torch::Tensor& embedding) {
    return projectInputs(x, embedding);
  }
  // The recurrent weights as eval mode uses them (weight normalisation folded in, no weight
  // drop), by parameter name, shaped [G*R, C] (stacked) or [G, R, C] (batched): what a copy
  // of the cell outside the training loop needs. Runs without autograd.
  std::vector<std::pair<std::string, torch::Tensor>> effectiveRecurrentWeights();

  // x: [T, B, inputSize]; embedding: [T, B, embeddingSize] (read only by cells that use it,
  // otherwise may be undefined); stateMask: [B, H] variational mask applied to h_{t-1}
  // where it enters the recurrent matrices, or undefined. Returns h for every step [T, B, H]
  // and leaves the final state in `state`.
  // `masks`: the window's DropConnect masks are replayed from (or recorded into) them.
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& embedding, CellState& state,
                        const torch::Tensor& stateMask = {}, ProbeRecorder* probes = nullptr,
                        WindowMasks* masks = nullptr);
  // Whether forward() may run a cell's fused window (fusedWindow(), or under TangentMode its
  // tangentWindow()); on by default. Off, every cell runs the generic per-step loop: the
  // reference the fused paths are tested against.
  void setFusedEnabled(bool enabled) { fusedEnabled_ = enabled; }
  bool fusedEnabled() const { return fusedEnabled_; }
  // One time step: x [B, inputSize], embedding [B, embeddingSize] or undefined.
  torch::Tensor step(const torch::Tensor& x, const torch::Tensor& embedding, CellState& state,
                     ProbeRecorder* probes = nullptr);

 protected:
  // Input-only part of every step, for the whole window at once: [T, B, K].
  virtual torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) = 0;
  // One step. xp: this step's slice of projectInputs() [B, K]; hIn: h_{t-1} as it enters the
  // recurrent matrices (state dropout applied). Updates `state`, returns the new h.
  virtual torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                              ProbeRecorder* probes) = 0;
  // The whole window's recurrence in one fused operation, for cells that have one: given
  // projectInputs()' result [T, B, K], returns h for every step and updates `state`, or
  // returns an undefined tensor when it does not apply (then the per-step loop runs).
  virtual torch::Tensor fusedWindow(const torch::Tensor& /*projected*/, CellState& /*state*/,
                                    const torch::Tensor& /*stateMask*/) {
    return {};
  }
  // The window under forward-mode differentiation at `level` (TangentMode), for cells that
  // compute their tangent themselves (tangent_windows.h): h for every step as dual tensors,
  // `state` updated; or an undefined tensor (then the per-step loop's dual arithmetic runs).
  virtual torch::Tensor tangentWindow(const torch::Tensor& /*projected*/, CellState& /*state*/,
                                      const torch::Tensor& /*stateMask*/, uint64_t /*level*/) {
    return {};
  }
  // Called once per window after the recurrent weights are prepared; cells that cache
  // views of them (slices, concatenations) do it here, not per step.
  virtual void onWeightsPrepared() {}

  RecurrentWeight* addRecurrentWeight(
      const std::string& name, int64_t blocks, int64_t rows, int64_t cols,
      RecurrentWeight::Layout layout = RecurrentWeight::Layout::Stacked);
  torch::Tensor addInputWeight(const std::string& name, int64_t rows, int64_t cols);
  torch::Tensor addVector(const std::string& name, int64_t size);

  // Shared initialisation: every input weight uniform, every recurrent weight per `init`,
  // every vector zero. Cells then set their special values (forget bias, MI gains).
  void resetCommon(const InitConfig& init);

 private:
  LayerConfig config_;
  bool fusedEnabled_ = true;
  int64_t inputSize_;
  int64_t embeddingSize_;
  std::vector<std::unique_ptr<RecurrentWeight>> recurrentWeights_;
  std::vector<torch::Tensor> inputWeights_;
  std::vector<torch::Tensor> vectors_;
};

}  // namespace mrnn::engine
