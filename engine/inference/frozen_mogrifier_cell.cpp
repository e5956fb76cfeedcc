#include "engine/inference/frozen_mogrifier_cell.h"

#include <algorithm>
#include <string>

#include "engine/inference/frozen_updates.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

FrozenMogrifierCell::FrozenMogrifierCell(const LayerConfig& config, int64_t inputSize,
                                         FrozenWeights& weights)
    : FrozenCell(config, inputSize, inputSize) {
  const int64_t h = config.hiddenSize;
  for (int i = 1; i <= config.rounds; ++i) {
    const bool odd = i % 2 == 1;
    const std::string name = (odd ? "Q" : "R") + std::to_string(i);
    const int64_t rows = odd ? inputSize : h;  // Q^i maps h to x's width; R^i maps x to h's
    const int64_t cols = odd ? h : inputSize;
    Round round;
    if (config.rank > 0) {
      round.left = weights.take(name + "_left", rows, config.rank);
      round.right = weights.take(name + "_right", config.rank, cols);
    } else {
      round.full = weights.take(name, rows, cols);
    }
    rounds_.push_back(std::move(round));
  }
  wX_ = weights.take("W_x", 4 * h, inputSize);
  b_ = weights.takeVector("b", 4 * h);
  wH_ = weights.take("W_h", 4 * h, h);
  x0_.resize(inputSize);
  h_.resize(h);
  gate_.resize(std::max(inputSize, h));
  lowRank_.resize(std::max<int64_t>(config.rank, 1));
  pre_.resize(4 * h);
}

void FrozenMogrifierCell::apply(const Round& round, const float* source, float* out,
                                const GemvOptions& run) {
  if (round.right.values.empty()) {
    gemv(round.full.data(), round.full.rows, round.full.cols, source, out, false, run);
    return;
  }
  gemv(round.right.data(), round.right.rows, round.right.cols, source, lowRank_.data(), false, run);
  gemv(round.left.data(), round.left.rows, round.left.cols, lowRank_.data(), out, false, run);
}

void FrozenMogrifierCell::step(float* xp, float* h, float* c, const GemvOptions& run) {
  const int64_t n = hiddenSize();
  const int64_t in = inputSize();
  float* x = xp;  // x^i, gated in place
  float* hw = h_.data();
  std::copy(h, h + n, hw);  // h^i; h itself stays h_{t-1} until the LSTM step
  std::copy(x, x + in, x0_.data());
  const bool zigzag = config().zigzag;
  float* gate = gate_.data();
  for (size_t index = 0; index < rounds_.size(); ++index) {
    if (index % 2 == 0) {  // odd round i = index + 1: x^i = 2 s(Q^i h^{i-1}) * x^{i-2}
      apply(rounds_[index], zigzag ? hw : h, gate, run);
      sigmoidInPlace(gate, in);
      for (int64_t k = 0; k < in; ++k) x[k] = 2.0f * gate[k] * x[k];
    } else {  // even round: h^i = 2 s(R^i x^{i-1}) * h^{i-2}
      apply(rounds_[index], zigzag ? x : x0_.data(), gate, run);
      sigmoidInPlace(gate, n);
      for (int64_t k = 0; k < n; ++k) hw[k] = 2.0f * gate[k] * hw[k];
    }
  }
  // MogrifierCell::recur()'s order: (W_x x + b) + W_h h.
  float* pre = pre_.data();
  gemv(wX_.data(), 4 * n, in, x, pre, false, run);
  for (int64_t k = 0; k < 4 * n; ++k) pre[k] += b_[k];
  gemv(wH_.data(), 4 * n, n, hw, pre, /*accumulate=*/true, run);
  lstmFinish(pre, c, h, n, config().outputGate);
}

}  // namespace mrnn::engine
