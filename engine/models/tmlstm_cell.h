#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// True mLSTM (Maupome & Meurs eqs. 14-17): one intermediate state per gate and for the
// candidate, m_g = (W_mx,g x) * (W_mh,g h_prev), pre_g = U_g x + V_g m_g + b_g, g in i f o j.
class TmlstmCell : public RecurrentCell {
 public:
  TmlstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  int statePartCount() const override { return 2; }
  std::vector<std::string> probeNames() const override;
  void resetParameters(const InitConfig& init) override;
  InputAffine inputAffine() const override;

 protected:
  torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) override;
  torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                      ProbeRecorder* probes) override;
  torch::Tensor fusedWindow(const torch::Tensor& projected, CellState& state,
                            const torch::Tensor& stateMask) override;

 private:
  torch::Tensor wMx_, wX_, b_;
  RecurrentWeight* wMh_;
  RecurrentWeight* v_;  // [4, H, M] batched: one V per gate
};

}  // namespace mrnn::engine
