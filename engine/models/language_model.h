#pragma once

#include <torch/nn/module.h>

#include <memory>
#include <vector>

#include "engine/config/model_config.h"
#include "engine/models/cell_state.h"
#include "engine/models/input_layer.h"
#include "engine/models/output_head.h"
#include "engine/models/probe_recorder.h"
#include "engine/models/recurrent_cell.h"
#include "engine/models/unit_clamp.h"
#include "engine/models/window_masks.h"

namespace mrnn::engine {

// The state of every layer, carried across windows (truncated BPTT).
struct ModelState {
  std::vector<CellState> layers;
  void detach() {
    for (auto& layer : layers) layer.detach();
  }
  // The batch rows `index` (a long tensor) of every part, in that order.
  ModelState rows(const torch::Tensor& index) const;
  // The states' batch rows one after another (all states of the same model).
  static ModelState concatenated(const std::vector<ModelState>& states);
  // The memory its tensors hold, in bytes: what an analysis that keeps many states counts.
  double bytes() const;
};

// What an update's objective asks of a forward pass besides the log-probabilities: the
// window's dropout masks replayed (or recorded), and each layer's output h for every step
// [T, B, H] (structural damping acts on them).
struct WindowPass {
  WindowMasks* masks = nullptr;
  std::vector<torch::Tensor>* layerOutputs = nullptr;
  // [T, B, input.values]: the real-valued inputs beside the symbols, for a model that reads
  // them (the addition problem); undefined otherwise.
  torch::Tensor values;
};

// A recurrent language model: input layer -> stack of zoo cells -> softmax or Mixture of
// Softmaxes. Variational masks (hidden, state, output) are drawn once per forward() call,
// i.e. per window, and shared over its time steps.
class LanguageModel : public torch::nn::Module {
 public:
  // Builds and initialises the model from `config` (seeded by config.init.seed). Throws
  // std::invalid_argument when the configuration cannot be built (see checkModel()).
  LanguageModel(const ModelConfig& config, int64_t vocab);

  const ModelConfig& config() const { return config_; }
  int64_t vocab() const { return vocab_; }
  size_t layerCount() const { return layers_.size(); }
  RecurrentCell& layer(size_t index) { return *layers_.at(index); }

  ModelState initialState(int64_t batch) const;
  // tokens: [T, B] int64 -> log-probabilities of the next symbol [T, B, V] (a linear output:
  // the predicted real numbers [T, B, O]). Probes, when recorded, are named "layer<N>/<probe>"
  // with N counted from 1.
  torch::Tensor forward(const torch::Tensor& tokens, ModelState& state,
                        ProbeRecorder* probes = nullptr, const WindowPass& pass = {});
  // The top layer's output for each step [T, B, H], before the output dropout and head.
  torch::Tensor hidden(const torch::Tensor& tokens, ModelState& state,
                       ProbeRecorder* probes = nullptr, const WindowPass& pass = {});
  torch::Tensor logProbabilities(const torch::Tensor& topHidden, WindowMasks* masks = nullptr);

  int64_t parameterCount() const;

  // Analysis hooks, off by default. Clamped layers run step by step so that the clamp holds
  // inside the recurrence. An output mask [H] multiplies a layer's output features (what the
  // next layer or the softmax reads), as in Shuang §V-C's feature masking; a mask [B, H] gives
  // each of the next forward()'s B streams its own.
  void setClamps(std::vector<UnitClamp> clamps);
  // Fused window kernels (RecurrentCell::fusedWindow) on or off for every layer; on by
  // default. Off is the generic per-step loop, for tests and benchmarks to compare with.
  void setFusedKernels(bool enabled);
  const std::vector<UnitClamp>& clamps() const { return clamps_; }
  void setOutputMask(size_t layer, torch::Tensor mask);
  // The mask set for `layer`, undefined when none.
  torch::Tensor outputMask(size_t layer) const;
  void clearOutputMasks();

 private:
  torch::Tensor runLayer(size_t index, const torch::Tensor& x, const torch::Tensor& embedded,
                         CellState& state, const torch::Tensor& stateMask, ProbeRecorder* probes,
                         WindowMasks* masks);

  ModelConfig config_;
  int64_t vocab_;
  std::shared_ptr<InputLayer> input_;
  std::vector<std::shared_ptr<RecurrentCell>> layers_;
  std::shared_ptr<OutputHead> output_;
  std::vector<UnitClamp> clamps_;
  std::vector<torch::Tensor> outputMasks_;  // per layer; undefined = none
};

}  // namespace mrnn::engine
