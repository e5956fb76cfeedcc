#include "engine/models/mrnn_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_mrnn_window.h"
#include "engine/models/tangent_mode.h"
#include "engine/models/tangent_windows.h"
#include "engine/windows/mrnn_window_layout.h"

namespace mrnn::engine {

MrnnCell::MrnnCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMx_ = addInputWeight("W_mx", m, inputSize);
  wHx_ = addInputWeight("W_hx", h, inputSize);
  if (config.bias) b_ = addVector("b", h);
  wMh_ = addRecurrentWeight("W_mh", 1, m, h);
  wHm_ = addRecurrentWeight("W_hm", 1, h, m);
}

std::vector<std::string> MrnnCell::probeNames() const {
  return {"m", "h"};
}

void MrnnCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
}

torch::Tensor MrnnCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::cat({torch::linear(x, wMx_), torch::linear(x, wHx_, b_)}, -1);  // b_ may be {}
}

InputAffine MrnnCell::inputAffine() const {
  if (!b_.defined()) return {torch::cat({wMx_, wHx_}), {}, {}};
  return {
      torch::cat({wMx_, wHx_}), {}, torch::cat({torch::zeros({wMx_.size(0)}, b_.options()), b_})};
}

torch::Tensor MrnnCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                              ProbeRecorder* probes) {
  const int64_t m = config().intermediateSize();
  const auto mxPart = xp.narrow(1, 0, m);
  const auto hxPart = xp.narrow(1, m, config().hiddenSize);
  const auto mt = mxPart * torch::mm(hIn, wMh_->current().t());
  auto h = torch::tanh(torch::addmm(hxPart, mt, wHm_->current().t()));
  if (probes) {
    probes->record("m", mt);
    probes->record("h", h);
  }
  state.parts[0] = h;
  return h;
}

torch::Tensor MrnnCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                    const torch::Tensor& stateMask) {
  const auto& wMh = wMh_->current();
  const auto& wHm = wHm_->current();
  FusedWindowResult out;
  if (fusedWindowApplies({projected, wMh, wHm})) {
    out = fusedMrnnWindow(projected, state.parts[0], wMh, wHm, stateMask);
  } else if (cudaFusedWindowApplies({projected, state.parts[0], wMh, wHm})) {
    out = cudaFusedWindow<MrnnWindow>({projected, state.parts[0], wMh, wHm, stateMask});
  } else {
    return {};
  }
  state.parts[0] = out.h;
  return out.hs;
}

torch::Tensor MrnnCell::tangentWindow(const torch::Tensor& projected, CellState& state,
                                      const torch::Tensor& stateMask, uint64_t level) {
  const auto out = mrnnTangentWindow(projected, state.parts[0], wMh_->current(), wHm_->current(),
                                     stateMask, level, TangentMode::knownOutput(this));
  state.parts[0] = out.h;
  return out.hs;
}

}  // namespace mrnn::engine
