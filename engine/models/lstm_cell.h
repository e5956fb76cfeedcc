#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// LSTM (Krause eqs. 11-16): [i f o j] = W_x x + W_h h_prev + b, then lstmUpdate().
class LstmCell : public RecurrentCell {
 public:
  LstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

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
  torch::Tensor wX_, b_;
  RecurrentWeight* wH_;
};

}  // namespace mrnn::engine
