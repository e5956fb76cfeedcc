#include "engine/models/tmgru_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_tmgru_window.h"
#include "engine/models/gru_update.h"
#include "engine/windows/tmgru_window_layout.h"

namespace mrnn::engine {

TmgruCell::TmgruCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMx_ = addInputWeight("W_mx", 3 * m, inputSize);  // rows: z, r, h
  wX_ = addInputWeight("W_x", 3 * h, inputSize);    // rows: z, r, j
  b_ = addVector("b", 3 * h);
  wMhZr_ = addRecurrentWeight("W_mh_zr", 2, m, h);
  wMhH_ = addRecurrentWeight("W_mh_h", 1, m, h);
  v_ = addRecurrentWeight("V", 3, h, m, RecurrentWeight::Layout::Batched);
}

std::vector<std::string> TmgruCell::probeNames() const {
  return {"m_z", "m_r", "m_h", "z", "r", "j", "h"};
}

void TmgruCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
}

void TmgruCell::onWeightsPrepared() {
  vBlocks_ = v_->current().unbind(0);
}

torch::Tensor TmgruCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::cat({torch::linear(x, wMx_), torch::linear(x, wX_, b_)}, -1);
}

InputAffine TmgruCell::inputAffine() const {
  return {
      torch::cat({wMx_, wX_}), {}, torch::cat({torch::zeros({wMx_.size(0)}, b_.options()), b_})};
}

torch::Tensor TmgruCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                               ProbeRecorder* probes) {
  const int64_t h = config().hiddenSize;
  const int64_t m = config().intermediateSize();
  const auto mzr = xp.narrow(1, 0, 2 * m) * torch::mm(hIn, wMhZr_->current().t());
  const auto mz = mzr.narrow(1, 0, m);
  const auto mr = mzr.narrow(1, m, m);
  const auto ux = xp.narrow(1, 3 * m, 3 * h);
  const auto z = torch::sigmoid(torch::addmm(ux.narrow(1, 0, h), mz, vBlocks_[0].t()));
  const auto r = torch::sigmoid(torch::addmm(ux.narrow(1, h, h), mr, vBlocks_[1].t()));
  const auto mh = xp.narrow(1, 2 * m, m) * torch::mm(r * hIn, wMhH_->current().t());
  const auto j = torch::tanh(torch::addmm(ux.narrow(1, 2 * h, h), mh, vBlocks_[2].t()));
  if (probes) {
    probes->record("m_z", mz);
    probes->record("m_r", mr);
    probes->record("m_h", mh);
  }
  return gruUpdate(z, r, j, state, probes);
}

torch::Tensor TmgruCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                     const torch::Tensor& stateMask) {
  const auto& wMhZr = wMhZr_->current();
  const auto& wMhH = wMhH_->current();
  const auto& v = v_->current();
  FusedWindowResult out;
  if (fusedWindowApplies({projected, state.parts[0], wMhZr, wMhH, v})) {
    out = fusedTmgruWindow(projected, state.parts[0], wMhZr, wMhH, v, stateMask);
  } else if (cudaFusedWindowApplies({projected, state.parts[0], wMhZr, wMhH, v})) {
    out = cudaFusedWindow<TmgruWindow>({projected, state.parts[0], wMhZr, wMhH, v, stateMask});
  } else {
    return {};
  }
  state.parts[0] = out.h;
  return out.hs;
}

}  // namespace mrnn::engine
