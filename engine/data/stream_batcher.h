#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/data/token_stream.h"
#include "engine/data/window_source.h"

namespace mrnn::engine {

// One window of B parallel streams: inputs and targets are [T, B] row-major (time-major),
// targets shifted by one symbol. lossMask is empty (every position counts) or [T, B] of 0/1:
// the corpus's target mask (the reverse copy task scores only the reversed half) times
// "predict only the last k symbols" (Sutskever §5.2).
struct Window {
  int64_t steps = 0;
  int64_t batch = 0;
  std::vector<int64_t> inputs;
  std::vector<int64_t> targets;
  std::vector<float> lossMask;
  bool epochStart = false;  // the first window of an epoch: the caller resets the state
  // Every stream starts a new sequence here (the long-range problems): the caller reads the
  // window from the initial state.
  bool freshState = false;
  // Real numbers beside the symbols ([T, B, F] row-major, F = values / (T·B)) and real
  // targets ([T, B, O]), for the addition problem; empty otherwise.
  std::vector<float> inputValues;
  std::vector<float> targetValues;
};

struct BatcherOptions {
  int64_t batch = 32;
  int64_t bptt = 100;
  bool randomLength = false;  // AWD-LSTM: bptt w.p. 0.95 else bptt/2, then N(len, 5), >= 5
  int64_t predictLast = 0;    // > 0: only the last k targets of each window count
  uint64_t seed = 1;
};

// Cuts a token stream into B contiguous streams (the remainder dropped) and walks them
// window by window, so the recurrent state carries across windows. Its position (and the
// random-length generator) is saved in checkpoints, so a resumed run sees the same windows.
// Stream b holds inputs tokens[b*L, (b+1)*L) with L = (N-1)/B, and the targets one further on.
class StreamBatcher : public WindowSource {
 public:
  // Keeps a copy of `tokens` (a view sharing its storage). `targetMask` is empty (every target
  // counts) or one 0/1 per token, 1 where that token as a target counts (CorpusSplit::
  // targetMask); it is cut into windows with the targets. Throws std::invalid_argument for
  // batch or bptt below 1, predictLast below 0, fewer than B + 1 tokens, or a mask of another
  // length than the tokens.
  StreamBatcher(const TokenStream& tokens, const BatcherOptions& options,
                const TokenStream& targetMask = TokenStream());

  // The next window; wraps to a new epoch at the end of the streams. The wrap happens when
  // the window after an epoch's last one is asked for: epoch() is the epoch of the window
  // last returned, and epochProgress() reaches 1 after an epoch's last window.
  Window next() override;
  int64_t epoch() const override { return epoch_; }
  // Position within the epoch, in time steps of each stream.
  int64_t position() const { return position_; }
  int64_t stepsPerStream() const { return streamLength_; }
  double epochProgress() const override;  // 0..1
  int64_t windowsPerEpoch() const override;

  // Everything needed to continue exactly: position, epoch and generator state, as text.
  std::string saveState() const override;
  // Throws std::invalid_argument for a malformed state or one saved for other streams
  // (another batch size or corpus length).
  void restoreState(const std::string& state) override;

 private:
  int64_t nextLength();
  double uniform();

  TokenStream tokens_;
  TokenStream targetMask_;  // empty: every target counts
  BatcherOptions options_;
  int64_t streamLength_;
  int64_t position_ = 0;
  int64_t epoch_ = 0;
  std::mt19937_64 random_;
};

}  // namespace mrnn::engine
