#pragma once

#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/data/token_stream.h"
#include "engine/models/language_model.h"

namespace mrnn::engine {

// Scores a held-out text as the papers do, read as one stream with the state carried from its
// first symbol, while computing it as B parallel streams.
//
// The text's N - 1 targets are cut into B contiguous streams of L = (N - 1) / B (the last
// also takes the remainder). A first pass reads every stream from a zero state, which is
// exact for stream 0 only: the others begin cold in the middle of the text. Then each
// stream b >= 1 is re-read from the state stream b - 1 ended in, window by window, until its
// state meets the state of its previous reading (max |difference| <= tolerance at a window
// boundary): from there on the two readings are the same, so the earlier windows' scores are
// replaced and the later ones kept. A stream that never meets its previous reading is read to
// its end, and its successor must be read again. The first round re-reads all streams at
// once; later rounds go in order, one stream from a final state each, until no start state
// changed. Every stream has then begun from the state its predecessor ended in: the
// one-stream score, to the tolerance. A model that forgets its start costs one pass and a few
// windows per stream; one that never forgets (an LSTM whose memory cells hold a sign for
// thousands of symbols) costs the first pass, one round and at most one one-stream reading.
struct OneStreamOptions {
  int64_t batch = 1;
  int64_t bptt = 100;
  // Largest per-element state difference at which two readings count as the same. Float32
  // states of a forgetting model meet to ~1e-7; 1e-4 changes a window's loss by far less than
  // 0.001 bits per symbol.
  double tolerance = 1e-4;
  // < 0: until the start states settle; otherwise at most this many re-reading rounds
  // (MC dropout's states are random, so two readings never meet: one round, each stream
  // then starts from a state drawn as its predecessor's reading ends).
  int maxRounds = -1;
  // Memory for the window-boundary states the rounds compare with; streams are compared
  // over as many of their first windows as fit (then read to the end).
  int64_t boundaryMemoryBytes = int64_t{64} << 20;
  torch::Device device = torch::kCPU;  // where inputs, targets and index tensors go
};

// One window's scores: inputs [T, b] int64 on the model's device; `states` holds the state of
// those b streams (one ModelState per dropout sample) and is advanced in place. Returns the
// negative log-likelihoods of the targets, [T, b] (targets passed as [T, b] int64).
using WindowScorer = std::function<torch::Tensor(
    const torch::Tensor& inputs, const torch::Tensor& targets, std::vector<ModelState>& states)>;
// The zero state of `batch` streams, one ModelState per dropout sample.
using InitialStates = std::function<std::vector<ModelState>(int64_t batch)>;

struct OneStreamTotals {
  double nats = 0.0;        // summed over the targets that count
  int64_t counted = 0;      // targets that count (the target mask's ones, or all)
  int64_t positions = 0;    // targets read: N - 1
  int rounds = 0;           // re-reading rounds after the first pass
  int64_t rereadSteps = 0;  // stream-steps read again in those rounds
};

// Throws std::invalid_argument for fewer than 2 tokens, a batch or bptt below 1, or a mask of
// another length. `progress` (0..1) may throw to cancel.
OneStreamTotals scoreAsOneStream(const TokenStream& tokens, const TokenStream& targetMask,
                                 const OneStreamOptions& options, const InitialStates& initial,
                                 const WindowScorer& scorer,
                                 const std::function<void(double)>& progress = {});

}  // namespace mrnn::engine
