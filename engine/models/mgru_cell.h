#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// mGRU with a shared intermediate state (Maupome & Meurs eqs. 25-27):
//   m = (W_mx x) * (W_mh h_prev); z = s(U_z x + V_z m) [H]; r = s(U_r x + V_r m) [M];
//   j = tanh(U_h x + V_h (r * m)); h = (1 - z) * h_prev + z * j.
class MgruCell : public RecurrentCell {
 public:
  MgruCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  int statePartCount() const override { return 1; }
  std::vector<std::string> probeNames() const override;
  void resetParameters(const InitConfig& init) override;
  InputAffine inputAffine() const override;

 protected:
  torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) override;
  torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                      ProbeRecorder* probes) override;
  // CPU float32: fusedMgruWindow (one node, own backward).
  torch::Tensor fusedWindow(const torch::Tensor& projected, CellState& state,
                            const torch::Tensor& stateMask) override;
  void onWeightsPrepared() override;

 private:
  torch::Tensor wMx_, wX_, b_;
  RecurrentWeight* wMh_;
  RecurrentWeight* vZ_;
  RecurrentWeight* vR_;
  RecurrentWeight* vH_;
  torch::Tensor vZr_;  // [V_z; V_r], concatenated once per window
};

}  // namespace mrnn::engine
