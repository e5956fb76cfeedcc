#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// GRU (Maupome & Meurs eqs. 18-21):
//   z = s(U_z x + W_z h), r = s(U_r x + W_r h), j = tanh(U_h x + W_h (r * h)),
//   h = (1 - z) * h_prev + z * j.
// With reset_after (PyTorch's and cuDNN's form): j = tanh(U_h x + r * (W_h h + b_hh)), which
// trains on the generic step loop (no fused window).
class GruCell : public RecurrentCell {
 public:
  GruCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  int statePartCount() const override { return 1; }
  std::vector<std::string> probeNames() const override;
  void resetParameters(const InitConfig& init) override;
  InputAffine inputAffine() const override;

 protected:
  torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) override;
  torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                      ProbeRecorder* probes) override;
  // CPU float32: fusedGruWindow (one node, own backward).
  torch::Tensor fusedWindow(const torch::Tensor& projected, CellState& state,
                            const torch::Tensor& stateMask) override;

 private:
  torch::Tensor wX_, b_;
  RecurrentWeight* wZr_;
  RecurrentWeight* wH_;
  torch::Tensor bHh_;  // reset_after only
};

}  // namespace mrnn::engine
