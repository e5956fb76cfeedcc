#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// Multiplicative RNN (Sutskever eqs. 7-8, Krause eqs. 9-10), factor size F = m_size:
//   m = (W_mx x) * (W_mh h_prev);  h = tanh(W_hm m + W_hx x)   (+ b with `bias: true`).
class MrnnCell : public RecurrentCell {
 public:
  MrnnCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  int statePartCount() const override { return 1; }
  std::vector<std::string> probeNames() const override;
  bool tanhOutput() const override { return true; }
  void resetParameters(const InitConfig& init) override;
  InputAffine inputAffine() const override;

 protected:
  torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) override;
  torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                      ProbeRecorder* probes) override;
  torch::Tensor fusedWindow(const torch::Tensor& projected, CellState& state,
                            const torch::Tensor& stateMask) override;
  torch::Tensor tangentWindow(const torch::Tensor& projected, CellState& state,
                              const torch::Tensor& stateMask, uint64_t level) override;

 private:
  torch::Tensor wMx_, wHx_, b_;  // b_ undefined without `bias: true`
  RecurrentWeight* wMh_;
  RecurrentWeight* wHm_;
};

}  // namespace mrnn::engine
