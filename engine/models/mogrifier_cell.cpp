#include "engine/models/mogrifier_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_mogrifier_window.h"
#include "engine/models/fused_mogrifier_window.h"
#include "engine/models/lstm_update.h"

namespace mrnn::engine {

MogrifierCell::MogrifierCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  wX_ = addInputWeight("W_x", 4 * h, inputSize);
  b_ = addVector("b", 4 * h);
  wH_ = addRecurrentWeight("W_h", 4, h, h);
  for (int i = 1; i <= config.rounds; ++i) {
    const bool odd = i % 2 == 1;
    const std::string name = (odd ? "Q" : "R") + std::to_string(i);
    const int64_t rows = odd ? inputSize : h;  // Q^i maps h to x's width; R^i maps x to h's
    const int64_t cols = odd ? h : inputSize;
    RoundMatrix matrix;
    if (config.rank > 0) {
      matrix.left = addInputWeight(name + "_left", rows, config.rank);
      matrix.right = addInputWeight(name + "_right", config.rank, cols);
    } else {
      matrix.full = addInputWeight(name, rows, cols);
    }
    rounds_.push_back(matrix);
  }
}

std::vector<std::string> MogrifierCell::probeNames() const {
  std::vector<std::string> names;
  for (int i = 1; i <= config().rounds; ++i) {
    names.push_back((i % 2 == 1 ? "x" : "h") + std::to_string(i));
  }
  for (const char* name : {"i", "f", "o", "j", "c", "h"}) names.emplace_back(name);
  return names;
}

void MogrifierCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
  setForgetBias(b_, config().hiddenSize, init.forgetBias);
}

torch::Tensor MogrifierCell::applyRound(const RoundMatrix& matrix,
                                        const torch::Tensor& source) const {
  if (matrix.full.defined()) return torch::mm(source, matrix.full.t());
  return torch::mm(torch::mm(source, matrix.right.t()), matrix.left.t());
}

// x is modulated by h_prev before any product with W_x, so nothing can be hoisted.
torch::Tensor MogrifierCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return x;
}

// The identity: the projection passes x through unchanged.
InputAffine MogrifierCell::inputAffine() const {
  return {};
}

torch::Tensor MogrifierCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn,
                                   CellState& state, ProbeRecorder* probes) {
  torch::Tensor x = xp;
  torch::Tensor h = hIn;
  const bool zigzag = config().zigzag;
  for (size_t index = 0; index < rounds_.size(); ++index) {
    const int round = static_cast<int>(index) + 1;
    if (round % 2 == 1) {
      x = 2.0 * torch::sigmoid(applyRound(rounds_[index], zigzag ? h : hIn)) * x;
      if (probes) probes->record("x" + std::to_string(round), x);
    } else {
      h = 2.0 * torch::sigmoid(applyRound(rounds_[index], zigzag ? x : xp)) * h;
      if (probes) probes->record("h" + std::to_string(round), h);
    }
  }
  const auto pre = torch::addmm(torch::linear(x, wX_, b_), h, wH_->current().t());
  const auto out = lstmUpdate(pre, state.parts[1], config().outputGate, probes);
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.h;
}

torch::Tensor MogrifierCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                         const torch::Tensor& stateMask) {
  if (config().outputGate != OutputGate::Outside) return {};
  const auto& wH = wH_->current();
  // The round matrices are input weights like W_x: the same device and precision.
  const bool onCpu = fusedWindowApplies({projected, wX_, b_, wH, state.parts[0], state.parts[1]});
  if (!onCpu && !cudaFusedWindowApplies({projected, wX_, b_, wH, state.parts[0], state.parts[1]})) {
    return {};
  }
  std::vector<torch::Tensor> rounds;  // in order, each full or left then right
  const bool lowRank = config().rank > 0;
  for (const auto& matrix : rounds_) {
    if (lowRank) {
      rounds.push_back(matrix.left);
      rounds.push_back(matrix.right);
    } else {
      rounds.push_back(matrix.full);
    }
  }
  auto out = onCpu ? fusedMogrifierWindow(projected, state.parts[0], state.parts[1], wX_, b_, wH,
                                          rounds, lowRank, config().zigzag, stateMask)
                   : cudaFusedMogrifierWindow(projected, state.parts[0], state.parts[1], wX_, b_,
                                              wH, rounds, lowRank, config().zigzag, stateMask);
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.hs;
}

}  // namespace mrnn::engine
