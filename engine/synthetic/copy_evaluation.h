#pragma once

#include <cstdint>
#include <vector>

#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"
#include "engine/synthetic/copy_predictor.h"

namespace mrnn::engine {

class JobContext;

struct CopyEvalOptions {
  int64_t length = 50;      // L, the tokens to copy
  int64_t examples = 1000;  // N fresh examples
  uint64_t seed = 1;        // with the task's unused stream (CopyStream::Fresh) of this seed
  int64_t batch = 64;       // examples run side by side
};

// How well a model copies in reverse (Melis et al. 2019 §4.3, Fig. 4). Position k (1..L) is
// the k-th symbol after the marker, whose target is the input's k-th token from the end, so
// its lag grows with k. Predictions are teacher-forced: each position is predicted from the
// true symbols before it, as in the cross-entropy the paper plots. An example is copied
// exactly when every one of its L argmax predictions is right; that is also exactly when
// greedy decoding, feeding back its own choices, reproduces the reversal.
struct CopyEvaluation {
  int64_t tokens = 0;  // V
  int64_t length = 0;  // L
  int64_t examples = 0;
  uint64_t seed = 0;
  double bitsPerToken = 0.0;             // mean cross-entropy over the L x N copied tokens
  double tokenAccuracy = 0.0;            // share of copied tokens whose argmax prediction is right
  double exactFraction = 0.0;            // share of examples copied exactly
  std::vector<double> positionBits;      // [L]: mean bits at position k = index + 1
  std::vector<double> positionAccuracy;  // [L]
};

// Scores `options.examples` fresh examples of length L over V = predictor.vocab() - 2 tokens.
// The examples are read as the model was trained, as one stream per column: column c of round
// r holds example r x B + c, each round reads <eos> (the end of the example before; the
// stream's start in round 0) and then the example's 2L + 1 tokens but its last, so the state
// carries from example to example as it did across training windows. Throws
// std::invalid_argument for a length, count or batch below 1, or a predictor with fewer than
// 3 symbols. `job` (may be null) gets progress and may cancel.
CopyEvaluation evaluateReverseCopy(CopyPredictor& predictor, const CopyEvalOptions& options,
                                   JobContext* job = nullptr);

// The same for a trained model, whose vocabulary must be a reverse copy vocabulary
// (ReverseCopyTask::vocabularyFor); throws std::invalid_argument saying so otherwise.
CopyEvaluation evaluateReverseCopy(LanguageModel& model, const Vocabulary& vocabulary,
                                   const CopyEvalOptions& options, JobContext* job = nullptr);

}  // namespace mrnn::engine
