#include "engine/models/rnn_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_rnn_window.h"
#include "engine/models/tangent_mode.h"
#include "engine/models/tangent_windows.h"
#include "engine/windows/rnn_window_layout.h"

namespace mrnn::engine {

RnnCell::RnnCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  wHx_ = addInputWeight("W_hx", h, inputSize);
  b_ = addVector("b", h);
  wHh_ = addRecurrentWeight("W_hh", 1, h, h);
}

std::vector<std::string> RnnCell::probeNames() const {
  return {"h"};
}

void RnnCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
}

torch::Tensor RnnCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::linear(x, wHx_, b_);
}

InputAffine RnnCell::inputAffine() const {
  return {wHx_, {}, b_};
}

torch::Tensor RnnCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                             ProbeRecorder* probes) {
  auto h = torch::tanh(torch::addmm(xp, hIn, wHh_->current().t()));
  if (probes) probes->record("h", h);
  state.parts[0] = h;
  return h;
}

torch::Tensor RnnCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                   const torch::Tensor& stateMask) {
  const auto& wHh = wHh_->current();
  FusedWindowResult out;
  if (fusedWindowApplies({projected, wHh})) {
    out = fusedRnnWindow(projected, state.parts[0], wHh, stateMask);
  } else if (cudaFusedWindowApplies({projected, state.parts[0], wHh})) {
    out = cudaFusedWindow<RnnWindow>({projected, state.parts[0], wHh, stateMask});
  } else {
    return {};
  }
  state.parts[0] = out.h;
  return out.hs;
}

torch::Tensor RnnCell::tangentWindow(const torch::Tensor& projected, CellState& state,
                                     const torch::Tensor& stateMask, uint64_t level) {
  const auto out = rnnTangentWindow(projected, state.parts[0], wHh_->current(), stateMask, level,
                                    TangentMode::knownOutput(this));
  state.parts[0] = out.h;
  return out.hs;
}

}  // namespace mrnn::engine
