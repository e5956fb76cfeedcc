#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// Major-Minor LSTM (Shuang et al. 2020, eqs. 21-22): two independent LSTMs side by side, a
// major one of round(share * H) units reading the layer below and a minor one of the rest
// reading the input embedding (MMLM-1) or the layer below (MMLM-2); the layer's output is
// [h_major, h_minor]. Parameters carry the suffixes _major and _minor; with no minor units
// the cell is exactly an LSTM.
class MajorMinorLstmCell : public RecurrentCell {
 public:
  MajorMinorLstmCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

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
  int64_t major_;
  int64_t minor_;
  torch::Tensor wXMajor_, bMajor_, wXMinor_, bMinor_;
  RecurrentWeight* wHMajor_;
  RecurrentWeight* wHMinor_ = nullptr;
};

}  // namespace mrnn::engine
