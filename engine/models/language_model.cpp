#include "engine/models/language_model.h"

#include <torch/torch.h>

#include <cmath>
#include <stdexcept>

#include "engine/config/model_check.h"
#include "engine/models/cell_factory.h"
#include "engine/models/linear_output.h"
#include "engine/models/mixture_of_softmaxes.h"
#include "engine/models/softmax_output.h"
#include "engine/models/variational_dropout.h"

namespace mrnn::engine {

LanguageModel::LanguageModel(const ModelConfig& config, int64_t vocab)
    : config_(config), vocab_(vocab) {
  if (vocab <= 0) throw std::invalid_argument("the model needs a vocabulary of at least 1 symbol");
  const auto problems = checkModel(config, vocab);
  if (!problems.empty()) {
    throw std::invalid_argument("model." + problems.front().key + ": " + problems.front().reason);
  }
  torch::manual_seed(config.init.seed);

  input_ =
      register_module("input", std::make_shared<InputLayer>(config.input, vocab, config.dropout));
  const int64_t inputWidth = input_->outputSize();
  int64_t width = inputWidth;
  for (size_t i = 0; i < config.layers.size(); ++i) {
    auto cell = makeCell(config.layers[i], width, inputWidth, config.init);
    layers_.push_back(register_module("layer" + std::to_string(i + 1), cell));
    width = cell->outputSize();
  }

  const torch::Tensor tied = config.output.tieEmbeddings ? input_->embedding() : torch::Tensor();
  if (config.output.kind == OutputKind::Linear) {
    output_ = register_module("output", std::make_shared<LinearOutput>(width, config.output.size));
  } else if (config.output.kind == OutputKind::Softmax) {
    output_ = register_module("output", std::make_shared<SoftmaxOutput>(width, vocab, tied));
  } else {
    const int64_t latent = tied.defined()                 ? config.input.embeddingSize
                           : config.output.latentSize > 0 ? config.output.latentSize
                                                          : width;
    output_ = register_module("output", std::make_shared<MixtureOfSoftmaxes>(
                                            width, vocab, config.output.mixtures, latent, tied));
  }
}

ModelState LanguageModel::initialState(int64_t batch) const {
  const auto options = layers_.front()->parameters().front().options();
  ModelState state;
  for (const auto& layer : layers_) state.layers.push_back(layer->initialState(batch, options));
  return state;
}

torch::Tensor LanguageModel::runLayer(size_t index, const torch::Tensor& x,
                                      const torch::Tensor& embedded, CellState& state,
                                      const torch::Tensor& stateMask, ProbeRecorder* probes,
                                      WindowMasks* masks) {
  RecurrentCell& cell = *layers_[index];
  bool clamped = false;
  for (const auto& clamp : clamps_) clamped = clamped || clamp.layer == index;
  if (!clamped) return cell.forward(x, embedded, state, stateMask, probes, masks);
  // Step by step, overwriting the clamped units after each step, so the next step's
  // recurrence reads the clamped value too.
  std::vector<torch::Tensor> outputs;
  for (int64_t t = 0; t < x.size(0); ++t) {
    const auto e = embedded.defined() ? embedded.narrow(0, t, 1) : embedded;
    cell.forward(x.narrow(0, t, 1), e, state, stateMask, probes);
    auto h = state.parts[0].clone();
    for (const auto& clamp : clamps_) {
      if (clamp.layer == index) h.select(1, clamp.unit).fill_(clamp.value);
    }
    state.parts[0] = h;
    outputs.push_back(h);
  }
  return torch::stack(outputs, 0);
}

torch::Tensor LanguageModel::hidden(const torch::Tensor& tokens, ModelState& state,
                                    ProbeRecorder* probes, const WindowPass& pass) {
  if (state.layers.size() != layers_.size()) {
    throw std::invalid_argument("model state has " + std::to_string(state.layers.size()) +
                                " layers; the model has " + std::to_string(layers_.size()));
  }
  const bool training = is_training();
  const int64_t batch = tokens.size(1);
  const auto embedded = input_->forward(tokens, pass.masks, pass.values);
  if (pass.layerOutputs) pass.layerOutputs->clear();
  const auto options = embedded.options();
  torch::Tensor x = embedded;
  for (size_t i = 0; i < layers_.size(); ++i) {
    if (probes) probes->setScope("layer" + std::to_string(i + 1) + "/");
    const int64_t width = layers_[i]->outputSize();
    const auto stateMask = nextMask(pass.masks, true, [&] {
      return variationalMask(training, config_.dropout.state, {batch, width}, options);
    });
    x = runLayer(i, x, embedded, state.layers[i], stateMask, probes, pass.masks);
    if (pass.layerOutputs) pass.layerOutputs->push_back(x);
    if (i < outputMasks_.size() && outputMasks_[i].defined()) x = x * outputMasks_[i];
    if (i + 1 < layers_.size()) {
      x = applyMask(
          x, nextMask(pass.masks, true, [&] {
            return variationalMask(training, config_.dropout.hidden, {batch, width}, options);
          }));
    }
  }
  if (probes) probes->setScope("");
  return x;
}

torch::Tensor LanguageModel::logProbabilities(const torch::Tensor& topHidden, WindowMasks* masks) {
  const auto mask = nextMask(masks, true, [&] {
    return variationalMask(is_training(), config_.dropout.output,
                           {topHidden.size(1), topHidden.size(2)}, topHidden.options());
  });
  return output_->forward(applyMask(topHidden, mask));
}

torch::Tensor LanguageModel::forward(const torch::Tensor& tokens, ModelState& state,
                                     ProbeRecorder* probes, const WindowPass& pass) {
  return logProbabilities(hidden(tokens, state, probes, pass), pass.masks);
}

void LanguageModel::setFusedKernels(bool enabled) {
  for (auto& layer : layers_) layer->setFusedEnabled(enabled);
}

ModelState ModelState::rows(const torch::Tensor& index) const {
  ModelState out;
  for (const auto& layer : layers) {
    CellState cell;
    for (const auto& part : layer.parts) cell.parts.push_back(part.index_select(0, index));
    out.layers.push_back(std::move(cell));
  }
  return out;
}

double ModelState::bytes() const {
  double total = 0.0;
  for (const auto& layer : layers) {
    for (const auto& part : layer.parts) total += static_cast<double>(part.nbytes());
  }
  return total;
}

ModelState ModelState::concatenated(const std::vector<ModelState>& states) {
  if (states.size() == 1) return states.front();
  ModelState out = states.front();
  for (size_t l = 0; l < out.layers.size(); ++l) {
    for (size_t p = 0; p < out.layers[l].parts.size(); ++p) {
      std::vector<torch::Tensor> pieces;
      for (const auto& state : states) pieces.push_back(state.layers[l].parts[p]);
      out.layers[l].parts[p] = torch::cat(pieces, 0);
    }
  }
  return out;
}

void LanguageModel::setClamps(std::vector<UnitClamp> clamps) {
  for (const auto& clamp : clamps) {
    if (clamp.layer >= layers_.size() || clamp.unit < 0 ||
        clamp.unit >= layers_[clamp.layer]->outputSize()) {
      throw std::invalid_argument("cannot clamp unit " + std::to_string(clamp.unit) + " of layer " +
                                  std::to_string(clamp.layer + 1) + ": the model has " +
                                  std::to_string(layers_.size()) + " layers" +
                                  (clamp.layer < layers_.size()
                                       ? " and that layer has " +
                                             std::to_string(layers_[clamp.layer]->outputSize()) +
                                             " units"
                                       : ""));
    }
    if (!std::isfinite(clamp.value)) {
      // A NaN or infinite unit spreads through the recurrence: every later output is NaN.
      throw std::invalid_argument("cannot clamp unit " + std::to_string(clamp.unit) + " of layer " +
                                  std::to_string(clamp.layer + 1) + " to " +
                                  std::to_string(clamp.value) + ": a clamp value must be finite");
    }
  }
  clamps_ = std::move(clamps);
}

void LanguageModel::setOutputMask(size_t layer, torch::Tensor mask) {
  const bool shaped = layer < layers_.size() && mask.dim() >= 1 && mask.dim() <= 2 &&
                      mask.size(-1) == layers_[layer]->outputSize();
  if (!shaped) {
    throw std::invalid_argument("an output mask for layer " + std::to_string(layer + 1) +
                                " must have one entry per unit ([H], or [B, H] per stream)");
  }
  if (outputMasks_.size() < layers_.size()) outputMasks_.resize(layers_.size());
  outputMasks_[layer] = std::move(mask);
}

torch::Tensor LanguageModel::outputMask(size_t layer) const {
  return layer < outputMasks_.size() ? outputMasks_[layer] : torch::Tensor();
}

void LanguageModel::clearOutputMasks() {
  outputMasks_.clear();
}

int64_t LanguageModel::parameterCount() const {
  int64_t count = 0;
  for (const auto& parameter : parameters()) count += parameter.numel();
  return count;
}

}  // namespace mrnn::engine
