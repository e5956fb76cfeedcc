#pragma once

// Finding the units that follow a pattern in the text (Karpathy et al.'s quote and line
// length cells): a pattern is one 0/1 value per step, and units are ranked by how well their
// value over the steps correlates with it. Plain C++ over engine::GateReport values, so the
// arithmetic is tested without widgets.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/probing/gate_report.h"

namespace mrnn::widgets {

// Steps [first, end), or bytes of a text where the name says so. {-1, -1}: nowhere.
struct StepRange {
  int64_t first = 0;
  int64_t end = 0;
  bool empty() const { return end <= first; }
  bool operator==(const StepRange& other) const { return first == other.first && end == other.end; }
};

// How closely one unit follows a pattern.
struct UnitCorrelation {
  int64_t unit = 0;
  double correlation = 0.0;  // Pearson r of the unit's value and the 0/1 pattern; 0 if constant
  double meanInside = 0.0;   // mean value where the pattern is 1 (NaN when it never is)
  double meanOutside = 0.0;  // mean value where it is 0 (NaN when it never is)
};

// 1 at the steps between an opening and a closing '"' (the quotes themselves 0); also “ and
// ”. An unclosed quote marks everything after it: the model cannot know it never closes.
std::vector<double> insideQuotes(const std::vector<std::string>& symbols);
// 1 at the step right after each occurrence of `symbol` (" ", "\n", "<eos>").
std::vector<double> afterSymbol(const std::vector<std::string>& symbols, const std::string& symbol);
// 1 at the steps of `ranges` (clipped to [0, steps)).
std::vector<double> selectedSteps(int64_t steps, const std::vector<StepRange>& ranges);
// Every place where `sequence` occurs in `symbols`, without overlaps, in order.
std::vector<StepRange> occurrences(const std::vector<std::string>& symbols,
                                   const std::vector<std::string>& sequence);
// The number of steps a pattern marks.
int64_t markedSteps(const std::vector<double>& pattern);

// True when the symbols are words (some longer than one character), not characters or bytes.
bool symbolsAreWords(const std::vector<std::string>& symbols);
// The text the symbols stand for: characters one after another, words with spaces between
// them, <eos> as a line break.
std::string textOfSymbols(const std::vector<std::string>& symbols);

// Where each symbol of a report lies in the text it was recorded over: byte ranges of
// `text` (UTF-8), {-1, -1} for a symbol that cannot be placed. Follows the vocabulary's
// splitting: characters or bytes one after another; words separated by white space, with
// <eos> for a line break and <unk> for any word.
std::vector<StepRange> locateSymbols(const std::string& text,
                                     const std::vector<std::string>& symbols);
// The steps whose bytes overlap [begin, end) of the text, as one range (empty when none).
StepRange stepsInBytes(const std::vector<StepRange>& located, int64_t begin, int64_t end);
// The bytes of steps [first, end) (empty when none of them could be placed).
StepRange bytesOfSteps(const std::vector<StepRange>& located, const StepRange& steps);

// The units of `trace` ordered by |r| with `pattern` (one value per step), best first, ties
// by unit; at most `limit` of them (all when limit <= 0). Throws std::invalid_argument when
// the pattern's length is not the trace's step count.
std::vector<UnitCorrelation> rankUnits(const engine::ProbeTrace& trace,
                                       const std::vector<double>& pattern, int limit = 0);

}  // namespace mrnn::widgets
