#include "engine/models/milstm_cell.h"

#include <torch/torch.h>

#include "engine/models/lstm_update.h"

namespace mrnn::engine {

MilstmCell::MilstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  wX_ = addInputWeight("W_x", 4 * h, inputSize);
  b_ = addVector("b", 4 * h);
  alpha_ = addVector("alpha", 4 * h);
  beta1_ = addVector("beta1", 4 * h);
  beta2_ = addVector("beta2", 4 * h);
  wH_ = addRecurrentWeight("W_h", 4, h, h);
}

std::vector<std::string> MilstmCell::probeNames() const {
  return {"i", "f", "o", "j", "c", "h"};
}

void MilstmCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
  setForgetBias(b_, config().hiddenSize, init.forgetBias);
  // Our defaults: alpha = 1 (full second-order term), beta1 = beta2 = 0.5 (first-order
  // terms present but weaker); Wu et al. tune these per task.
  torch::NoGradGuard noGrad;
  alpha_.fill_(1.0);
  beta1_.fill_(0.5);
  beta2_.fill_(0.5);
}

torch::Tensor MilstmCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::linear(x, wX_);
}

// No bias here: recur() adds b after the multiplicative integration.
InputAffine MilstmCell::inputAffine() const {
  return {wX_, {}, {}};
}

torch::Tensor MilstmCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                                ProbeRecorder* probes) {
  const auto uh = torch::mm(hIn, wH_->current().t());
  const auto pre = alpha_ * xp * uh + beta1_ * uh + beta2_ * xp + b_;
  const auto out = lstmUpdate(pre, state.parts[1], config().outputGate, probes);
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.h;
}

}  // namespace mrnn::engine
