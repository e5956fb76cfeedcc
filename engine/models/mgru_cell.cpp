#include "engine/models/mgru_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_mgru_window.h"
#include "engine/models/gru_update.h"
#include "engine/windows/mgru_window_layout.h"

namespace mrnn::engine {

MgruCell::MgruCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMx_ = addInputWeight("W_mx", m, inputSize);
  wX_ = addInputWeight("W_x", 2 * h + m, inputSize);  // rows: z [H], r [M], j [H]
  b_ = addVector("b", 2 * h + m);
  wMh_ = addRecurrentWeight("W_mh", 1, m, h);
  vZ_ = addRecurrentWeight("V_z", 1, h, m);
  vR_ = addRecurrentWeight("V_r", 1, m, m);
  vH_ = addRecurrentWeight("V_h", 1, h, m);
}

std::vector<std::string> MgruCell::probeNames() const {
  return {"m", "z", "r", "j", "h"};
}

void MgruCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
}

void MgruCell::onWeightsPrepared() {
  vZr_ = torch::cat({vZ_->current(), vR_->current()}, 0);
}

torch::Tensor MgruCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::cat({torch::linear(x, wMx_), torch::linear(x, wX_, b_)}, -1);
}

InputAffine MgruCell::inputAffine() const {
  return {
      torch::cat({wMx_, wX_}), {}, torch::cat({torch::zeros({wMx_.size(0)}, b_.options()), b_})};
}

torch::Tensor MgruCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                              ProbeRecorder* probes) {
  const int64_t h = config().hiddenSize;
  const int64_t m = config().intermediateSize();
  const auto mt = xp.narrow(1, 0, m) * torch::mm(hIn, wMh_->current().t());
  const auto zr = torch::sigmoid(torch::addmm(xp.narrow(1, m, h + m), mt, vZr_.t()));
  const auto z = zr.narrow(1, 0, h);
  const auto r = zr.narrow(1, h, m);
  const auto j = torch::tanh(torch::addmm(xp.narrow(1, m + h + m, h), r * mt, vH_->current().t()));
  if (probes) {
    probes->record("m", mt);
  }
  return gruUpdate(z, r, j, state, probes);
}

torch::Tensor MgruCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                    const torch::Tensor& stateMask) {
  const auto& wMh = wMh_->current();
  const auto& vH = vH_->current();
  FusedWindowResult out;
  if (fusedWindowApplies({projected, state.parts[0], wMh, vZr_, vH})) {
    out = fusedMgruWindow(projected, state.parts[0], wMh, vZr_, vH, stateMask);
  } else if (cudaFusedWindowApplies({projected, state.parts[0], wMh, vZr_, vH})) {
    out = cudaFusedWindow<MgruWindow>({projected, state.parts[0], wMh, vZr_, vH, stateMask});
  } else {
    return {};
  }
  state.parts[0] = out.h;
  return out.hs;
}

}  // namespace mrnn::engine
