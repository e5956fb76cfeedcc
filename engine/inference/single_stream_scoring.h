#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/data/token_stream.h"
#include "engine/inference/single_stream_model.h"

namespace mrnn::engine {

// Scoring a held-out text on the frozen single-stream copy: the text read once, as one stream
// from the zero state, one symbol at a time. This is the one-stream figure itself, with no
// re-reading, at the rate the sampler generates; the batched re-reading
// (scoreAsOneStream) reaches the same figure by another road.
struct SingleStreamScoring {
  // The softmax temperatures to score at, all in the same reading: each target's
  // log-probability under log_softmax(logp / T). {1}: the model as trained.
  std::vector<double> temperatures{1.0};
  // Symbols between calls of beforeWindow and progress.
  int64_t window = 100;
  // Called before each window (an analysis that draws the model's output masks per window
  // sets them here; the caller re-reads them into the copy).
  std::function<void()> beforeWindow;
  // Fraction of the text read (0..1); may throw to cancel.
  std::function<void(double)> progress;
};

struct SingleStreamTotals {
  std::vector<double> nats;  // per temperature, summed over the targets that count
  int64_t counted = 0;       // targets that count (the target mask's ones, or all)
  int64_t positions = 0;     // targets read: N - 1
};

// Resets `model` to the zero state and reads `tokens`; with a target mask (same length as the
// tokens, 1 for a target that counts) only those targets are summed. Throws
// std::invalid_argument for fewer than 2 tokens, a mask of another length, no temperatures or
// one that is not positive, or a window below 1.
SingleStreamTotals scoreSingleStream(SingleStreamModel& model, const TokenStream& tokens,
                                     const TokenStream& targetMask,
                                     const SingleStreamScoring& options);

}  // namespace mrnn::engine
