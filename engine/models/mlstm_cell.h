#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// Multiplicative LSTM (Krause eqs. 17-21), one m shared by all gates:
//   m = (W_mx x) * (W_mh h_prev);  [i f o j] = W_x x + W_m m + b, then lstmUpdate().
class MlstmCell : public RecurrentCell {
 public:
  MlstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  int statePartCount() const override { return 2; }
  std::vector<std::string> probeNames() const override;
  void resetParameters(const InitConfig& init) override;
  InputAffine inputAffine() const override;

 protected:
  torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) override;
  torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                      ProbeRecorder* probes) override;
  // CPU float32 with the output gate outside: fusedMlstmWindow (one node, own backward).
  torch::Tensor fusedWindow(const torch::Tensor& projected, CellState& state,
                            const torch::Tensor& stateMask) override;

 private:
  torch::Tensor wMx_, wX_, b_;
  RecurrentWeight* wMh_;
  RecurrentWeight* wM_;
};

}  // namespace mrnn::engine
