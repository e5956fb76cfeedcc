#include "widgets/gates/unit_pattern.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mrnn::widgets {

namespace {

const std::string kOpenQuote = "\xE2\x80\x9C";   // “
const std::string kCloseQuote = "\xE2\x80\x9D";  // ”

// White space a word-level vocabulary skips between words (a line break is a symbol).
bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

bool isSpace(char c) {
  return isBlank(c) || c == '\n';
}

}  // namespace

std::vector<double> insideQuotes(const std::vector<std::string>& symbols) {
  std::vector<double> pattern(symbols.size(), 0.0);
  bool inside = false;
  for (size_t t = 0; t < symbols.size(); ++t) {
    const std::string& symbol = symbols[t];
    if (symbol == "\"") {
      inside = !inside;
    } else if (symbol == kOpenQuote) {
      inside = true;
    } else if (symbol == kCloseQuote) {
      inside = false;
    } else if (inside) {
      pattern[t] = 1.0;
    }
  }
  return pattern;
}

std::vector<double> afterSymbol(const std::vector<std::string>& symbols,
                                const std::string& symbol) {
  std::vector<double> pattern(symbols.size(), 0.0);
  for (size_t t = 1; t < symbols.size(); ++t) {
    if (symbols[t - 1] == symbol) pattern[t] = 1.0;
  }
  return pattern;
}

std::vector<double> selectedSteps(int64_t steps, const std::vector<StepRange>& ranges) {
  std::vector<double> pattern(static_cast<size_t>(std::max<int64_t>(steps, 0)), 0.0);
  for (const StepRange& range : ranges) {
    const int64_t first = std::max<int64_t>(range.first, 0);
    const int64_t end = std::min<int64_t>(range.end, steps);
    for (int64_t t = first; t < end; ++t) pattern[static_cast<size_t>(t)] = 1.0;
  }
  return pattern;
}

std::vector<StepRange> occurrences(const std::vector<std::string>& symbols,
                                   const std::vector<std::string>& sequence) {
  std::vector<StepRange> found;
  if (sequence.empty() || sequence.size() > symbols.size()) return found;
  size_t t = 0;
  while (t + sequence.size() <= symbols.size()) {
    if (std::equal(sequence.begin(), sequence.end(),
                   symbols.begin() + static_cast<std::ptrdiff_t>(t))) {
      found.push_back({static_cast<int64_t>(t), static_cast<int64_t>(t + sequence.size())});
      t += sequence.size();
    } else {
      ++t;
    }
  }
  return found;
}

int64_t markedSteps(const std::vector<double>& pattern) {
  return static_cast<int64_t>(
      std::count_if(pattern.begin(), pattern.end(), [](double v) { return v != 0.0; }));
}

bool symbolsAreWords(const std::vector<std::string>& symbols) {
  return std::any_of(symbols.begin(), symbols.end(), [](const std::string& symbol) {
    // Code points: every byte but UTF-8 continuation bytes (10xxxxxx) starts one.
    const auto starts = std::count_if(symbol.begin(), symbol.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    });
    return starts > 1;
  });
}

std::string textOfSymbols(const std::vector<std::string>& symbols) {
  const bool words = symbolsAreWords(symbols);
  std::string text;
  bool lineStart = true;
  for (const std::string& symbol : symbols) {
    const bool lineBreak = symbol == "<eos>" || symbol == "\n";
    if (words && !lineStart && !lineBreak) text += ' ';
    text += symbol == "<eos>" ? std::string("\n") : symbol;
    lineStart = lineBreak;
  }
  return text;
}

std::vector<StepRange> locateSymbols(const std::string& text,
                                     const std::vector<std::string>& symbols) {
  std::vector<StepRange> located;
  located.reserve(symbols.size());
  const size_t size = text.size();
  size_t position = 0;
  for (const std::string& symbol : symbols) {
    size_t p = position;
    if (symbol == "<unk>") {
      // Any word the vocabulary does not know.
      while (p < size && isBlank(text[p])) ++p;
      const size_t start = p;
      while (p < size && !isSpace(text[p])) ++p;
      if (p > start) {
        located.push_back({static_cast<int64_t>(start), static_cast<int64_t>(p)});
        position = p;
      } else {
        located.push_back({-1, -1});
      }
      continue;
    }
    const std::string& target = symbol == "<eos>" ? std::string("\n") : symbol;
    auto matches = [&](size_t at) {
      return !target.empty() && at <= size && text.compare(at, target.size(), target) == 0;
    };
    // Characters and bytes follow each other directly; words may have blanks between them.
    while (p < size && !matches(p) && isBlank(text[p])) ++p;
    if (matches(p)) {
      located.push_back({static_cast<int64_t>(p), static_cast<int64_t>(p + target.size())});
      position = p + target.size();
    } else {
      located.push_back({-1, -1});
    }
  }
  return located;
}

StepRange stepsInBytes(const std::vector<StepRange>& located, int64_t begin, int64_t end) {
  StepRange steps{-1, -1};
  if (end <= begin) return steps;
  for (size_t t = 0; t < located.size(); ++t) {
    const StepRange& bytes = located[t];
    if (bytes.first < 0 || bytes.end <= begin || bytes.first >= end) continue;
    if (steps.first < 0) steps.first = static_cast<int64_t>(t);
    steps.end = static_cast<int64_t>(t) + 1;
  }
  return steps;
}

StepRange bytesOfSteps(const std::vector<StepRange>& located, const StepRange& steps) {
  StepRange bytes{-1, -1};
  const int64_t first = std::max<int64_t>(steps.first, 0);
  const int64_t end = std::min<int64_t>(steps.end, static_cast<int64_t>(located.size()));
  for (int64_t t = first; t < end; ++t) {
    const StepRange& range = located[static_cast<size_t>(t)];
    if (range.first < 0) continue;
    if (bytes.first < 0) bytes.first = range.first;
    bytes.end = range.end;
  }
  return bytes;
}

std::vector<UnitCorrelation> rankUnits(const engine::ProbeTrace& trace,
                                       const std::vector<double>& pattern, int limit) {
  if (static_cast<int64_t>(pattern.size()) != trace.steps) {
    throw std::invalid_argument("the pattern has " + std::to_string(pattern.size()) +
                                " steps but " + trace.name + " has " + std::to_string(trace.steps));
  }
  const std::vector<float> values = trace.floats();
  const auto steps = static_cast<size_t>(trace.steps);
  const auto units = static_cast<size_t>(trace.units);
  const double nan = std::numeric_limits<double>::quiet_NaN();

  double patternMean = 0.0;
  for (const double p : pattern) patternMean += p;
  const double marked = patternMean;
  if (steps > 0) patternMean /= static_cast<double>(steps);
  double patternSquares = 0.0;
  for (const double p : pattern) patternSquares += (p - patternMean) * (p - patternMean);

  std::vector<UnitCorrelation> ranked;
  ranked.reserve(units);
  for (size_t u = 0; u < units; ++u) {
    double sum = 0.0;
    double inside = 0.0;
    float lowest = std::numeric_limits<float>::infinity();
    float highest = -std::numeric_limits<float>::infinity();
    for (size_t t = 0; t < steps; ++t) {
      const float v = values[t * units + u];
      sum += v;
      if (pattern[t] != 0.0) inside += v;
      lowest = std::min(lowest, v);
      highest = std::max(highest, v);
    }
    UnitCorrelation row;
    row.unit = static_cast<int64_t>(u);
    const double unmarked = static_cast<double>(steps) - marked;
    row.meanInside = marked > 0.0 ? inside / marked : nan;
    row.meanOutside = unmarked > 0.0 ? (sum - inside) / unmarked : nan;
    // A constant unit (or pattern) carries no information; rounding would otherwise turn
    // its zero variance into an arbitrary r.
    if (steps > 0 && highest > lowest && patternSquares > 0.0) {
      const double mean = sum / static_cast<double>(steps);
      double squares = 0.0;
      double products = 0.0;
      for (size_t t = 0; t < steps; ++t) {
        const double d = values[t * units + u] - mean;
        squares += d * d;
        products += d * (pattern[t] - patternMean);
      }
      if (squares > 0.0) {
        row.correlation = std::clamp(products / std::sqrt(squares * patternSquares), -1.0, 1.0);
      }
    }
    ranked.push_back(row);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const UnitCorrelation& a, const UnitCorrelation& b) {
                     return std::abs(a.correlation) > std::abs(b.correlation);
                   });
  if (limit > 0 && ranked.size() > static_cast<size_t>(limit)) {
    ranked.resize(static_cast<size_t>(limit));
  }
  return ranked;
}

}  // namespace mrnn::widgets
