#pragma once

#include <torch/types.h>

#include <cstdint>
#include <vector>

#include "engine/models/language_model.h"
#include "engine/training/collective.h"
#include "engine/training/one_stream_scorer.h"

namespace mrnn::engine {

// Data-parallel training (docs/distributed.md): every rank walks the whole batch's windows
// (the batcher is cheap and its state is then one, for checkpoints and for any rank count)
// and trains on its own contiguous share of the batch's streams.
struct StreamShard {
  int64_t begin = 0;
  int64_t count = 0;
};

// Rank `rank` of `size`'s streams of a batch of `batch`. Throws std::invalid_argument,
// naming training.batch_size, when the batch does not split evenly: unequal shares would
// weigh the ranks' gradients unequally.
StreamShard streamShard(int64_t batch, int rank, int size);

// The state of every rank's streams, in rank order: the whole batch's (for a checkpoint,
// which any rank count can then resume).
ModelState gatherState(const ModelState& local, Collective& collective);
// The rows [begin, begin + count) of every part of `state`.
ModelState stateRows(const ModelState& state, int64_t begin, int64_t count);

// A held-out evaluation's scorer with each window's streams split over the ranks: each rank
// scores its share, and every rank gets all the scores and states back, so every rank walks
// the evaluation (whose re-reading rounds depend on the states) in step with the others and
// reaches the same figure. Exact: each stream is computed as it would be alone.
WindowScorer splitAcrossRanks(WindowScorer scorer, Collective& collective);

// What the ranks agree on after a step: the loss summed over the ranks' shares, whether any
// rank was asked to stop (they then all stop after the same step), and each rank's seconds
// for its share of the step.
struct StepAgreement {
  double loss = 0.0;
  bool stop = false;
  std::vector<double> seconds;
};
StepAgreement agreeAfterStep(Collective& collective, double localLoss, bool stopAsked,
                             double seconds);

// Makes every rank's parameters rank 0's.
void broadcastParameters(const std::vector<torch::Tensor>& parameters, Collective& collective);

// Every rank's generator state (a byte tensor of the same length on every rank), stacked
// [ranks, bytes]: each rank draws its own dropout masks, and a checkpoint keeps them all.
torch::Tensor gatherGeneratorStates(const torch::Tensor& local, Collective& collective);

}  // namespace mrnn::engine
