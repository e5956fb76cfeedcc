#include "engine/models/mlstm_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_mlstm_window.h"
#include "engine/models/lstm_update.h"
#include "engine/windows/mlstm_window_layout.h"

namespace mrnn::engine {

MlstmCell::MlstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMx_ = addInputWeight("W_mx", m, inputSize);
  wX_ = addInputWeight("W_x", 4 * h, inputSize);
  b_ = addVector("b", 4 * h);
  wMh_ = addRecurrentWeight("W_mh", 1, m, h);
  wM_ = addRecurrentWeight("W_m", 4, h, m);
}

std::vector<std::string> MlstmCell::probeNames() const {
  return {"m", "i", "f", "o", "j", "c", "h"};
}

void MlstmCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
  setForgetBias(b_, config().hiddenSize, init.forgetBias);
}

torch::Tensor MlstmCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::cat({torch::linear(x, wMx_), torch::linear(x, wX_, b_)}, -1);
}

InputAffine MlstmCell::inputAffine() const {
  return {
      torch::cat({wMx_, wX_}), {}, torch::cat({torch::zeros({wMx_.size(0)}, b_.options()), b_})};
}

torch::Tensor MlstmCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                               ProbeRecorder* probes) {
  const int64_t m = config().intermediateSize();
  const auto mt = xp.narrow(1, 0, m) * torch::mm(hIn, wMh_->current().t());
  if (probes) probes->record("m", mt);
  const auto pre = torch::addmm(xp.narrow(1, m, 4 * config().hiddenSize), mt, wM_->current().t());
  const auto out = lstmUpdate(pre, state.parts[1], config().outputGate, probes);
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.h;
}

torch::Tensor MlstmCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                     const torch::Tensor& stateMask) {
  const auto& wMh = wMh_->current();
  const auto& wM = wM_->current();
  if (config().outputGate != OutputGate::Outside) return {};
  FusedWindowResult out;
  if (fusedWindowApplies({projected, wMh, wM})) {
    out = fusedMlstmWindow(projected, state.parts[0], state.parts[1], wMh, wM, stateMask);
  } else if (cudaFusedWindowApplies({projected, state.parts[0], state.parts[1], wMh, wM})) {
    out = cudaFusedWindow<MlstmWindow>(
        {projected, state.parts[0], state.parts[1], wMh, wM, stateMask});
  } else {
    return {};
  }
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.hs;
}

}  // namespace mrnn::engine
