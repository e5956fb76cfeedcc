#pragma once

#include <string>
#include <vector>

#include "engine/synthetic/copy_evaluation.h"

namespace mrnn::engine {

// One model's reverse copy figures, labelled (the project file) for side-by-side comparison.
struct LabelledCopyEvaluation {
  std::string label;
  std::string checkpoint;
  CopyEvaluation result;
};

// Text, JSON and CSV for `mrnn analyze copy`, kept in the engine so that tests and other
// front ends write the same files.

// A summary line per model (V, bits per copied token, accuracy, exact copies), then the bits
// at each output position with one column per model.
std::string copyTable(const std::vector<LabelledCopyEvaluation>& models);
// {"task": "reverse_copy", "models": [{label, checkpoint, vocabulary, length, examples, seed,
// bits_per_token, token_accuracy, exact_fraction, positions: [{position, bits, accuracy}]}]}
std::string copyJson(const std::vector<LabelledCopyEvaluation>& models);
// model,vocabulary,length,examples,seed,position,bits,accuracy,exact_fraction: per model a row
// "all" (the means, and the exact-copy share) and a row per output position 1..L.
std::string copyCsv(const std::vector<LabelledCopyEvaluation>& models);

}  // namespace mrnn::engine
