#include "engine/scoring/surprisal_difference.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <stdexcept>

#include "engine/scoring/scoring_output.h"

namespace mrnn::engine {
namespace {

void requireSameSymbols(const TextScore& a, const TextScore& b) {
  const size_t common = std::min(a.symbols.size(), b.symbols.size());
  for (size_t i = 0; i < common; ++i) {
    if (a.symbols[i].id != b.symbols[i].id || a.symbols[i].predicted != b.symbols[i].predicted) {
      throw std::invalid_argument("the two scores differ at symbol " + std::to_string(i + 1) +
                                  ": they were not made on the same text");
    }
  }
  if (a.symbols.size() != b.symbols.size()) {
    throw std::invalid_argument("the two scores have " + std::to_string(a.symbols.size()) +
                                " and " + std::to_string(b.symbols.size()) +
                                " symbols: they were not made on the same text");
  }
}

}  // namespace

SurprisalDifference surprisalDifference(const TextScore& a, const TextScore& b, size_t largest) {
  requireSameSymbols(a, b);
  SurprisalDifference out;
  out.difference.assign(a.symbols.size(), 0.0);
  std::vector<SymbolDifference> all;
  double sum = 0.0;
  for (size_t i = 0; i < a.symbols.size(); ++i) {
    if (!a.symbols[i].predicted) continue;
    SymbolDifference d{static_cast<int64_t>(i), a.symbols[i].bits, b.symbols[i].bits};
    out.difference[i] = d.difference();
    sum += d.difference();
    all.push_back(d);
  }
  if (!all.empty()) out.meanDifference = sum / static_cast<double>(all.size());
  const size_t kept = std::min(largest, all.size());
  // Stable, so equal differences keep the text's order.
  std::stable_sort(all.begin(), all.end(),
                   [](const SymbolDifference& x, const SymbolDifference& y) {
                     return std::abs(x.difference()) > std::abs(y.difference());
                   });
  out.largest.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kept));
  return out;
}

void writeSurprisalDifferenceCsv(std::ostream& out, const TextScore& a, const TextScore& b) {
  requireSameSymbols(a, b);
  out << std::setprecision(10) << "position,id,symbol,bits_a,bits_b,difference\n";
  for (size_t i = 0; i < a.symbols.size(); ++i) {
    const auto& x = a.symbols[i];
    out << i << "," << x.id << "," << symbolCsvField(x.text) << ",";
    if (x.predicted) {
      const double y = b.symbols[i].bits;
      out << x.bits << "," << y << "," << x.bits - y;
    } else {
      out << ",,";
    }
    out << "\n";
  }
}

}  // namespace mrnn::engine
