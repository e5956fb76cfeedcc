#include "engine/models/major_minor_lstm_cell.h"

#include <torch/torch.h>

#include <stdexcept>
#include <vector>

#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_lstm_window.h"
#include "engine/models/lstm_update.h"
#include "engine/windows/lstm_window_layout.h"

namespace mrnn::engine {

MajorMinorLstmCell::MajorMinorLstmCell(const LayerConfig& config, int64_t inputSize,
                                       int64_t embeddingSize)
    : RecurrentCell(config, inputSize, embeddingSize),
      major_(config.majorSize()),
      minor_(config.minorSize()) {
  wXMajor_ = addInputWeight("W_x_major", 4 * major_, inputSize);
  bMajor_ = addVector("b_major", 4 * major_);
  wHMajor_ = addRecurrentWeight("W_h_major", 4, major_, major_);
  if (minor_ > 0) {
    const int64_t minorInput = config.minorInput == MinorInput::Below ? inputSize : embeddingSize;
    wXMinor_ = addInputWeight("W_x_minor", 4 * minor_, minorInput);
    bMinor_ = addVector("b_minor", 4 * minor_);
    wHMinor_ = addRecurrentWeight("W_h_minor", 4, minor_, minor_);
  }
}

std::vector<std::string> MajorMinorLstmCell::probeNames() const {
  std::vector<std::string> names;
  for (const char* part : {"major.", "minor."}) {
    if (std::string(part) == "minor." && minor_ == 0) break;
    for (const char* gate : {"i", "f", "o", "j", "c", "h"})
      names.push_back(part + std::string(gate));
  }
  names.emplace_back("h");
  return names;
}

void MajorMinorLstmCell::resetParameters(const InitConfig& init) {
  resetCommon(init);
  setForgetBias(bMajor_, major_, init.forgetBias);
  if (minor_ > 0) setForgetBias(bMinor_, minor_, init.forgetBias);
}

torch::Tensor MajorMinorLstmCell::projectInputs(const torch::Tensor& x,
                                                const torch::Tensor& embedding) {
  if (minor_ == 0) return torch::linear(x, wXMajor_, bMajor_);
  const bool fromBelow = config().minorInput == MinorInput::Below;
  if (!fromBelow && !embedding.defined()) {
    throw std::invalid_argument(
        "Major-Minor LSTM: the minor LSTM reads the input embedding, "
        "but none was passed to the layer");
  }
  const torch::Tensor& minorIn = fromBelow ? x : embedding;
  // Both read one tensor (the minor reading the layer below, or the first layer, whose input
  // is the embedding): one product, without a second one and a copy of the window to join them.
  if (minorIn.is_same(x)) {
    return torch::linear(x, torch::cat({wXMajor_, wXMinor_}), torch::cat({bMajor_, bMinor_}));
  }
  return torch::cat(
      {torch::linear(x, wXMajor_, bMajor_), torch::linear(minorIn, wXMinor_, bMinor_)}, -1);
}

// The minor rows read the layer below (fromInput) or the embedding (fromEmbedding); the
// other matrix has zero rows there.
InputAffine MajorMinorLstmCell::inputAffine() const {
  if (minor_ == 0) return {wXMajor_, {}, bMajor_};
  const auto options = wXMajor_.options();
  const bool fromBelow = config().minorInput == MinorInput::Below;
  InputAffine affine;
  affine.fromInput = torch::cat(
      {wXMajor_, fromBelow ? wXMinor_ : torch::zeros({4 * minor_, inputSize()}, options)});
  if (!fromBelow) {
    affine.fromEmbedding =
        torch::cat({torch::zeros({4 * major_, embeddingSize()}, options), wXMinor_});
  }
  affine.bias = torch::cat({bMajor_, bMinor_});
  return affine;
}

torch::Tensor MajorMinorLstmCell::recur(const torch::Tensor& xp, const torch::Tensor& hIn,
                                        CellState& state, ProbeRecorder* probes) {
  const auto& cPrev = state.parts[1];
  const auto preMajor =
      torch::addmm(xp.narrow(1, 0, 4 * major_), hIn.narrow(1, 0, major_), wHMajor_->current().t());
  const auto majorOut =
      lstmUpdate(preMajor, cPrev.narrow(1, 0, major_), config().outputGate, probes, "major.");
  if (minor_ == 0) {
    state.parts[0] = majorOut.h;
    state.parts[1] = majorOut.c;
  } else {
    const auto preMinor = torch::addmm(xp.narrow(1, 4 * major_, 4 * minor_),
                                       hIn.narrow(1, major_, minor_), wHMinor_->current().t());
    const auto minorOut = lstmUpdate(preMinor, cPrev.narrow(1, major_, minor_), config().outputGate,
                                     probes, "minor.");
    state.parts[0] = torch::cat({majorOut.h, minorOut.h}, 1);
    state.parts[1] = torch::cat({majorOut.c, minorOut.c}, 1);
  }
  if (probes) probes->record("h", state.parts[0]);
  return state.parts[0];
}

// The two LSTMs are independent: on the CPU one window runs both side by side (each step's
// products together, no copy of the projection or the states); on a GPU each runs its own
// window on its slice of the projection, the state and the mask.
torch::Tensor MajorMinorLstmCell::fusedWindow(const torch::Tensor& projected, CellState& state,
                                              const torch::Tensor& stateMask) {
  const auto& wMajor = wHMajor_->current();
  if (config().outputGate != OutputGate::Outside) return {};
  const bool onCpu = fusedWindowApplies({projected, wMajor});
  if (!onCpu && !cudaFusedWindowApplies({projected, state.parts[0], state.parts[1], wMajor})) {
    return {};
  }
  if (onCpu) {
    std::vector<torch::Tensor> weights{wMajor};
    if (minor_ > 0) weights.push_back(wHMinor_->current());
    const auto both =
        fusedBlockLstmWindow(projected, state.parts[0], state.parts[1], weights, stateMask);
    state.parts[0] = both.h;
    state.parts[1] = both.c;
    return both.hs;
  }
  const auto part = [&](int64_t gateOffset, int64_t offset, int64_t size, const torch::Tensor& w) {
    const auto xp = projected.narrow(2, gateOffset, 4 * size);
    const auto h0 = state.parts[0].narrow(1, offset, size);
    const auto c0 = state.parts[1].narrow(1, offset, size);
    const auto mask = stateMask.defined() ? stateMask.narrow(-1, offset, size) : stateMask;
    return cudaFusedWindow<LstmWindow>({xp, h0, c0, w, mask});
  };
  const auto major = part(0, 0, major_, wMajor);
  if (minor_ == 0) {
    state.parts[0] = major.h;
    state.parts[1] = major.c;
    return major.hs;
  }
  const auto minor = part(4 * major_, major_, minor_, wHMinor_->current());
  state.parts[0] = torch::cat({major.h, minor.h}, 1);
  state.parts[1] = torch::cat({major.c, minor.c}, 1);
  return torch::cat({major.hs, minor.hs}, 2);
}

}  // namespace mrnn::engine
