#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/data/vocabulary.h"

namespace mrnn::engine {

class LanguageModel;  // engine/models/language_model.h

class JobContext;

struct DebagOptions {
  int64_t exhaustiveLimit = 7;  // bags up to this size: every ordering (7! = 5,040)
  int64_t beamWidth = 100;      // larger bags: beam search keeping this many partial orders
  int64_t batch = 512;          // orderings run through the model at once
};

struct RankedOrdering {
  std::vector<std::string> words;
  double logProb = 0.0;  // natural log of p(ordering, right context | left context)
};

// Sutskever et al. §5.4 "debagging": the orderings of a bag of words ranked by the model.
struct DebagResult {
  std::vector<RankedOrdering> orderings;  // best first; exhaustive: all distinct orderings
  int64_t trueRank = 0;  // 1 + orderings scored strictly higher than the true one; beam
                         // search: 0 when the true order fell out of the beam
  std::vector<std::string> trueOrder;  // the bag as given
  double trueLogProb = 0.0;
  int64_t scored = 0;  // complete orderings scored (n! for n distinct words, exhaustively)
  bool exhaustive = true;
};

// Ranks the orderings of `bag` (given in its true order) between `left` (required: it
// predicts the first word) and `right` (may be empty). The text scored is left, the words and
// right joined by single spaces (none added next to whitespace already there), so char and
// byte models read "left w1 w2 right" and word models the same tokens. The left context runs
// once; its state is expanded over a batch of orderings [T, N]. Repeated words give each
// distinct ordering once. Throws std::invalid_argument for an empty bag or left context.
DebagResult debag(LanguageModel& model, const Vocabulary& vocabulary, const std::string& left,
                  const std::vector<std::string>& bag, const std::string& right,
                  const DebagOptions& options = {}, JobContext* job = nullptr);

}  // namespace mrnn::engine
