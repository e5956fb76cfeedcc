#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/data/vocabulary.h"

namespace mrnn::engine {

class LanguageModel;  // engine/models/language_model.h

class JobContext;

struct RecoveryOptions {
  double topFraction = 0.1;  // the most surprising positions: this share of the text
  int64_t offsets = 4;       // K: report the loss at +1..+K after each surprising position
};

// The table behind Krause et al. Fig. 3: how fast each model recovers after a surprising
// symbol. Losses are in nats per symbol; index [m] is model m, offsetMean[m][k - 1] is +k.
struct RecoveryTable {
  double topFraction = 0.1;
  int64_t offsets = 4;
  int64_t positions = 0;                        // scored positions in the text
  int64_t surprising = 0;                       // size of the surprising set
  std::vector<int64_t> offsetCounts;            // [K]: set members with a position +k
  std::vector<double> overallMean;              // [M]
  std::vector<double> surprisingMean;           // [M]
  std::vector<std::vector<double>> offsetMean;  // [M][K]
  std::vector<int64_t> surprisingPositions;     // ascending, indices into the loss rows
};

// The pure computation over per-symbol losses [model][position] (all rows the same length).
// The surprising set is the round(topFraction x N) positions (at least 1) with the highest
// loss averaged over the models, ties going to the earlier position. The mean at +k is over
// the set members whose position +k is inside the text (offsetCounts says how many).
// Throws std::invalid_argument for no rows, rows of different lengths, empty rows, a
// fraction outside (0, 1] or a negative K.
RecoveryTable surprisalRecovery(const std::vector<std::vector<double>>& losses,
                                const RecoveryOptions& options = {});

// Scores the symbols `ids` (in the shared vocabulary) with every model (all must share
// `vocabularies`' fingerprint: the positions must be the same symbols) and computes the table.
// Throws std::invalid_argument naming the model whose vocabulary differs.
RecoveryTable surprisalRecovery(const std::vector<LanguageModel*>& models,
                                const std::vector<const Vocabulary*>& vocabularies,
                                const std::vector<int64_t>& ids,
                                const RecoveryOptions& options = {}, JobContext* job = nullptr);

}  // namespace mrnn::engine
