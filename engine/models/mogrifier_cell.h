#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// Mogrifier LSTM (Melis et al. 2019, eqs. 1-2). Before the LSTM step, x and h_prev gate each
// other for r rounds:
//   odd i:  x^i = 2 s(Q^i h^{i-1}) * x^{i-2}      (x^{-1} = x)
//   even i: h^i = 2 s(R^i x^{i-1}) * h^{i-2}      (h^0 = h_prev)
// and the LSTM reads the last x^i and h^i. Q^i is [I, H] and R^i is [H, I], full rank, or
// Q_left [I, k] x Q_right [k, H] when rank k > 0. Without zigzag (the §4.1 ablation) every
// Q^i reads the original h_prev and every R^i the original x. r = 0 is exactly the LSTM.
class MogrifierCell : public RecurrentCell {
 public:
  MogrifierCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  int statePartCount() const override { return 2; }
  std::vector<std::string> probeNames() const override;
  void resetParameters(const InitConfig& init) override;
  InputAffine inputAffine() const override;

 protected:
  torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) override;
  torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                      ProbeRecorder* probes) override;
  // CPU float32 with the output gate outside: fusedMogrifierWindow (one node, own backward).
  torch::Tensor fusedWindow(const torch::Tensor& projected, CellState& state,
                            const torch::Tensor& stateMask) override;

 private:
  // One round's gating matrix: full, or the product left * right.
  struct RoundMatrix {
    torch::Tensor full;
    torch::Tensor left;
    torch::Tensor right;
  };
  torch::Tensor applyRound(const RoundMatrix& matrix, const torch::Tensor& source) const;

  torch::Tensor wX_, b_;
  RecurrentWeight* wH_;
  std::vector<RoundMatrix> rounds_;  // rounds_[i - 1] is Q^i (odd i) or R^i (even i)
};

}  // namespace mrnn::engine
