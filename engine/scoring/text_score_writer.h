#pragma once

#include <cstdint>
#include <ostream>

#include "engine/scoring/text_score.h"

namespace mrnn::engine {

enum class TextScoreFormat {
  Table,  // "symbol  bits" lines and a total line, for reading
  Csv,    // position,id,symbol,bits,probability,rank (the last three empty when not predicted)
  Json,   // {"symbols": [...], "total_bits", "bits_per_symbol", "predicted_symbols"}
};

// Writes a text score symbol by symbol as it is computed (scoreTextStreamed), so a long
// text's output never has to be held; the totals come last. The one writer of the formats:
// writeTextScoreCsv/Json use it for whole scores.
class TextScoreWriter {
 public:
  TextScoreWriter(std::ostream& out, TextScoreFormat format);
  void symbol(const SymbolScore& symbol);
  void finish(const TextScore& totals);

 private:
  std::ostream& out_;
  TextScoreFormat format_;
  int64_t position_ = 0;
};

}  // namespace mrnn::engine
