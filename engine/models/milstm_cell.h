#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// Multiplicative-integration LSTM (Wu et al. 2016), the comparison model of Krause §4.2:
//   pre = alpha * (W_x x) * (W_h h_prev) + beta1 * (W_h h_prev) + beta2 * (W_x x) + b,
// per gate (i f o j), then lstmUpdate().
class MilstmCell : public RecurrentCell {
 public:
  MilstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  int statePartCount() const override { return 2; }
  std::vector<std::string> probeNames() const override;
  void resetParameters(const InitConfig& init) override;
  InputAffine inputAffine() const override;

 protected:
  torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) override;
  torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                      ProbeRecorder* probes) override;

 private:
  torch::Tensor wX_, b_, alpha_, beta1_, beta2_;
  RecurrentWeight* wH_;
};

}  // namespace mrnn::engine
