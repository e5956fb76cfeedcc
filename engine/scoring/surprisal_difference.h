#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "engine/scoring/text_score.h"

namespace mrnn::engine {

// One symbol where two models disagree: its position in the text and each model's bits.
struct SymbolDifference {
  int64_t index = 0;
  double bitsA = 0.0;
  double bitsB = 0.0;
  double difference() const { return bitsA - bitsB; }
};

// Two models' surprisal on the same text, symbol by symbol (GLTR's and LSTMVis' comparison):
// A − B in bits, positive where A was more surprised than B.
struct SurprisalDifference {
  // One per symbol of the text; 0 for a symbol neither model predicted.
  std::vector<double> difference;
  // Mean over the predicted symbols: A's bits per symbol minus B's.
  double meanDifference = 0.0;
  // The symbols with the largest |A − B|, largest first (ties: earlier first).
  std::vector<SymbolDifference> largest;
};

// Compares two scores of the same symbols. Throws std::invalid_argument naming the first
// position where the two scored different symbols (or different lengths).
SurprisalDifference surprisalDifference(const TextScore& a, const TextScore& b,
                                        size_t largest = 20);

// CSV: position,id,symbol,bits_a,bits_b,difference (the last three empty when not predicted).
void writeSurprisalDifferenceCsv(std::ostream& out, const TextScore& a, const TextScore& b);

}  // namespace mrnn::engine
