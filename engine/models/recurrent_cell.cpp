#include "engine/models/recurrent_cell.h"

#include <torch/torch.h>

#include <cmath>

#include "engine/models/tangent_mode.h"

namespace mrnn::engine {

RecurrentCell::RecurrentCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : config_(config), inputSize_(inputSize), embeddingSize_(embeddingSize) {}

CellState RecurrentCell::initialState(int64_t batch, const torch::TensorOptions& options) const {
  CellState state;
  for (int i = 0; i < statePartCount(); ++i) {
    state.parts.push_back(torch::zeros({batch, config_.hiddenSize}, options));
  }
  return state;
}

int64_t RecurrentCell::recurrentWeightCount() const {
  int64_t count = 0;
  for (const auto& weight : recurrentWeights_) count += weight->weightCount();
  return count;
}

std::vector<std::pair<std::string, torch::Tensor>> RecurrentCell::effectiveRecurrentWeights() {
  torch::NoGradGuard noGrad;
  std::vector<std::pair<std::string, torch::Tensor>> weights;
  for (auto& weight : recurrentWeights_) {
    weight->prepare(/*training=*/false, 0.0);
    weights.emplace_back(weight->name(), weight->current().detach());
  }
  return weights;
}

RecurrentWeight* RecurrentCell::addRecurrentWeight(const std::string& name, int64_t blocks,
                                                   int64_t rows, int64_t cols,
                                                   RecurrentWeight::Layout layout) {
  recurrentWeights_.push_back(std::make_unique<RecurrentWeight>(*this, name, blocks, rows, cols,
                                                                layout, config_.weightNorm));
  return recurrentWeights_.back().get();
}

torch::Tensor RecurrentCell::addInputWeight(const std::string& name, int64_t rows, int64_t cols) {
  inputWeights_.push_back(register_parameter(name, torch::empty({rows, cols})));
  return inputWeights_.back();
}

torch::Tensor RecurrentCell::addVector(const std::string& name, int64_t size) {
  vectors_.push_back(register_parameter(name, torch::zeros({size})));
  return vectors_.back();
}

void RecurrentCell::resetCommon(const InitConfig& init) {
  torch::NoGradGuard noGrad;
  for (auto& weight : inputWeights_) {
    const double bound = init.inputScale / std::sqrt(static_cast<double>(weight.size(1)));
    weight.uniform_(-bound, bound);
  }
  for (auto& weight : recurrentWeights_) {
    switch (init.recurrent) {
      case RecurrentInit::Orthogonal:
        weight->initOrthogonal(init.recurrentScale);
        break;
      case RecurrentInit::Uniform:
        weight->initUniform(init.recurrentScale);
        break;
      case RecurrentInit::Sparse:
        weight->initSparse(init.recurrentScale, init.sparseConnections);
        break;
    }
  }
  for (auto& vector : vectors_) vector.zero_();
}

torch::Tensor RecurrentCell::forward(const torch::Tensor& x, const torch::Tensor& embedding,
                                     CellState& state, const torch::Tensor& stateMask,
                                     ProbeRecorder* probes, WindowMasks* masks) {
  for (auto& weight : recurrentWeights_) weight->prepare(is_training(), config_.weightDrop, masks);
  onWeightsPrepared();

  // Hoisted: one matrix product for the whole window, then split with unbind (indexing a
  // tensor step by step inside autograd costs a full-size gradient buffer per step).
  const auto window = projectInputs(x, embedding);
  if (fusedEnabled_ && probes == nullptr) {
    // The fused windows have no forward derivative: under TangentMode only a tangent window.
    const auto tangentLevel = TangentMode::level();
    auto fused = tangentLevel ? tangentWindow(window, state, stateMask, *tangentLevel)
                              : fusedWindow(window, state, stateMask);
    if (fused.defined()) return fused;
  }
  const auto projected = window.unbind(0);
  std::vector<torch::Tensor> outputs;
  outputs.reserve(projected.size());
  for (const auto& xp : projected) {
    const torch::Tensor hIn = stateMask.defined() ? state.h() * stateMask : state.h();
    outputs.push_back(recur(xp, hIn, state, probes));
  }
  return torch::stack(outputs, 0);
}

torch::Tensor RecurrentCell::step(const torch::Tensor& x, const torch::Tensor& embedding,
                                  CellState& state, ProbeRecorder* probes) {
  const torch::Tensor e = embedding.defined() ? embedding.unsqueeze(0) : embedding;
  return forward(x.unsqueeze(0), e, state, {}, probes).squeeze(0);
}

}  // namespace mrnn::engine
