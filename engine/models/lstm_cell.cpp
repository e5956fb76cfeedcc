#include "engine/models/lstm_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_lstm_window.h"
#include "engine/models/lstm_update.h"
#include "engine/windows/lstm_window_layout.h"

namespace mrnn::engine {

LstmCell::LstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  wX_ = addInputWeight("W_x", 4 * h, inputSize);
  b_ = addVector("b", 4 * h);
  wH_ = addRecurrentWeight("W_h", 4, h, h);
}

std::vector<std::string> LstmCell::probeNames() const {
  return {"i", "f", "o", "j", "c", "h"};
}

void LstmCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
  setForgetBias(b_, config().hiddenSize, init.forgetBias);
}

torch::Tensor LstmCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::linear(x, wX_, b_);
}

InputAffine LstmCell::inputAffine() const {
  return {wX_, {}, b_};
}

torch::Tensor LstmCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                              ProbeRecorder* probes) {
  const auto pre = torch::addmm(xp, hIn, wH_->current().t());
  const auto out = lstmUpdate(pre, state.parts[1], config().outputGate, probes);
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.h;
}

torch::Tensor LstmCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                    const torch::Tensor& stateMask) {
  const auto& wH = wH_->current();
  if (config().outputGate != OutputGate::Outside) return {};
  FusedWindowResult out;
  if (fusedWindowApplies({projected, wH})) {
    out = fusedLstmWindow(projected, state.parts[0], state.parts[1], wH, stateMask);
  } else if (cudaFusedWindowApplies({projected, state.parts[0], state.parts[1], wH})) {
    out = cudaFusedWindow<LstmWindow>({projected, state.parts[0], state.parts[1], wH, stateMask});
  } else {
    return {};
  }
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.hs;
}

}  // namespace mrnn::engine
