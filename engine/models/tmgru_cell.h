#pragma once

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// True mGRU (Maupome & Meurs eqs. 22-24, with eq. 23's bracket corrected):
//   m_z = (W_mx,z x) * (W_mh,z h_prev), z = s(U_z x + V_z m_z);
//   m_r = (W_mx,r x) * (W_mh,r h_prev), r = s(U_r x + V_r m_r);
//   m_h = (W_mx,h x) * (W_mh,h (r * h_prev)), j = tanh(U_h x + V_h m_h);
//   h = (1 - z) * h_prev + z * j.
class TmgruCell : public RecurrentCell {
 public:
  TmgruCell(const LayerConfig& config, int64_t inputSize, int64_t embeddingSize);

  int statePartCount() const override { return 1; }
  std::vector<std::string> probeNames() const override;
  void resetParameters(const InitConfig& init) override;
  InputAffine inputAffine() const override;

 protected:
  torch::Tensor projectInputs(const torch::Tensor& x, const torch::Tensor& embedding) override;
  torch::Tensor recur(const torch::Tensor& xp, const torch::Tensor& hIn, CellState& state,
                      ProbeRecorder* probes) override;
  // CPU float32: fusedTmgruWindow; CUDA float32 (or bf16 autocast): cudaFusedWindow<TmgruWindow>
  // (one node, own backward).
  torch::Tensor fusedWindow(const torch::Tensor& projected, CellState& state,
                            const torch::Tensor& stateMask) override;
  void onWeightsPrepared() override;

 private:
  torch::Tensor wMx_, wX_, b_;
  RecurrentWeight* wMhZr_;
  RecurrentWeight* wMhH_;
  RecurrentWeight* v_;                  // [3, H, M] batched: V_z, V_r, V_h
  std::vector<torch::Tensor> vBlocks_;  // v_ split once per window
};

}  // namespace mrnn::engine
