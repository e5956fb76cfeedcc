#include "engine/models/gru_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_gru_window.h"
#include "engine/models/gru_update.h"
#include "engine/windows/gru_window_layout.h"

namespace mrnn::engine {

GruCell::GruCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  wX_ = addInputWeight("W_x", 3 * h, inputSize);  // rows: z, r, j
  b_ = addVector("b", 3 * h);
  wZr_ = addRecurrentWeight("W_zr", 2, h, h);
  wH_ = addRecurrentWeight("W_h", 1, h, h);
  if (config.resetAfter) bHh_ = addVector("b_hh", h);
}

std::vector<std::string> GruCell::probeNames() const {
  return {"z", "r", "j", "h"};
}

void GruCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
}

torch::Tensor GruCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::linear(x, wX_, b_);
}

InputAffine GruCell::inputAffine() const {
  return {wX_, {}, b_};
}

torch::Tensor GruCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                             ProbeRecorder* probes) {
  const int64_t h = config().hiddenSize;
  const auto zr = torch::sigmoid(torch::addmm(xp.narrow(1, 0, 2 * h), hIn, wZr_->current().t()));
  const auto z = zr.narrow(1, 0, h);
  const auto r = zr.narrow(1, h, h);
  const auto j =
      config().resetAfter
          ? torch::tanh(xp.narrow(1, 2 * h, h) + r * torch::addmm(bHh_, hIn, wH_->current().t()))
          : torch::tanh(torch::addmm(xp.narrow(1, 2 * h, h), r * hIn, wH_->current().t()));
  return gruUpdate(z, r, j, state, probes);
}

torch::Tensor GruCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                   const torch::Tensor& stateMask) {
  if (config().resetAfter) return {};  // the fused windows hold eq. 20's form only
  const auto& wZr = wZr_->current();
  const auto& wH = wH_->current();
  FusedWindowResult out;
  if (fusedWindowApplies({projected, state.parts[0], wZr, wH})) {
    out = fusedGruWindow(projected, state.parts[0], wZr, wH, stateMask);
  } else if (cudaFusedWindowApplies({projected, state.parts[0], wZr, wH})) {
    out = cudaFusedWindow<GruWindow>({projected, state.parts[0], wZr, wH, stateMask});
  } else {
    return {};
  }
  state.parts[0] = out.h;
  return out.hs;
}

}  // namespace mrnn::engine
