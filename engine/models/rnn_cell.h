#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// Elman RNN (Sutskever eq. 1): h = tanh(W_hx x + W_hh h_prev + b).
class RnnCell : public RecurrentCell {
 public:
  RnnCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

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
  torch::Tensor wHx_, b_;
  RecurrentWeight* wHh_;
};

}  // namespace mrnn::engine
