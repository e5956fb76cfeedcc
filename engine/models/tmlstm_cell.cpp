#include "engine/models/tmlstm_cell.h"

#include <torch/torch.h>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_tmlstm_window.h"
#include "engine/models/lstm_update.h"
#include "engine/windows/tmlstm_window_layout.h"

namespace mrnn::engine {

TmlstmCell::TmlstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize) {
  const int64_t h = config.hiddenSize;
  const int64_t m = config.intermediateSize();
  wMx_ = addInputWeight("W_mx", 4 * m, inputSize);
  wX_ = addInputWeight("W_x", 4 * h, inputSize);
  b_ = addVector("b", 4 * h);
  wMh_ = addRecurrentWeight("W_mh", 4, m, h);
  v_ = addRecurrentWeight("V", 4, h, m, RecurrentWeight::Layout::Batched);
}

std::vector<std::string> TmlstmCell::probeNames() const {
  return {"m_i", "m_f", "m_o", "m_j", "i", "f", "o", "j", "c", "h"};
}

void TmlstmCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
  setForgetBias(b_, config().hiddenSize, init.forgetBias);
}

torch::Tensor TmlstmCell::projectInputs(const torch::Tensor& x, const torch::Tensor&) {
  return torch::cat({torch::linear(x, wMx_), torch::linear(x, wX_, b_)}, -1);
}

InputAffine TmlstmCell::inputAffine() const {
  return {
      torch::cat({wMx_, wX_}), {}, torch::cat({torch::zeros({wMx_.size(0)}, b_.options()), b_})};
}

torch::Tensor TmlstmCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                                ProbeRecorder* probes) {
  const int64_t h = config().hiddenSize;
  const int64_t m = config().intermediateSize();
  const int64_t batch = hIn.size(0);
  // All four intermediate states in one product: [B, 4M], gate-major.
  const auto mAll = xp.narrow(1, 0, 4 * m) * torch::mm(hIn, wMh_->current().t());
  const auto mGates = mAll.view({batch, 4, m}).transpose(0, 1);  // [4, B, M]
  if (probes) {
    const char* names[] = {"m_i", "m_f", "m_o", "m_j"};
    for (int g = 0; g < 4; ++g) probes->record(names[g], mGates[g]);
  }
  // Each gate's own V: a batched product [4, B, M] x [4, M, H] -> [4, B, H].
  const auto vm = torch::bmm(mGates, v_->current().transpose(1, 2));
  const auto pre = xp.narrow(1, 4 * m, 4 * h) + vm.transpose(0, 1).reshape({batch, 4 * h});
  const auto out = lstmUpdate(pre, state.parts[1], config().outputGate, probes);
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.h;
}

torch::Tensor TmlstmCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                      const torch::Tensor& stateMask) {
  const auto& wMh = wMh_->current();
  const auto& v = v_->current();
  if (config().outputGate != OutputGate::Outside) return {};
  FusedWindowResult out;
  if (fusedWindowApplies({projected, wMh, v})) {
    out = fusedTmlstmWindow(projected, state.parts[0], state.parts[1], wMh, v, stateMask);
  } else if (cudaFusedWindowApplies({projected, state.parts[0], state.parts[1], wMh, v})) {
    out = cudaFusedWindow<TmlstmWindow>(
        {projected, state.parts[0], state.parts[1], wMh, v, stateMask});
  } else {
    return {};
  }
  state.parts[0] = out.h;
  state.parts[1] = out.c;
  return out.hs;
}

}  // namespace mrnn::engine
