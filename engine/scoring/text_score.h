#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/data/vocabulary.h"

namespace mrnn::engine {

class LanguageModel;  // engine/models/language_model.h

class JobContext;

// One symbol of a scored text. `predicted` is false for a first symbol that nothing came
// before (no context given): the model has no prediction for it, so it carries no bits, no
// probability, no rank and no alternatives.
struct SymbolScore {
  // A candidate at this position. Nested (not engine::Alternative, the sampler's) so that
  // the two headers can meet in one translation unit.
  struct Alternative {
    int64_t id = 0;
    std::string text;
    double probability = 0.0;
  };

  int64_t id = 0;
  std::string text;
  double bits = 0.0;  // -log2 p(symbol | everything before it)
  bool predicted = true;
  double probability = 0.0;  // p(symbol | everything before it); 0 when not predicted
  // 1 + the number of symbols the model found strictly more probable (1: its top choice;
  // GLTR colours by it); 0 when not predicted.
  int64_t rank = 0;
  // The most probable symbols at this position, most probable first, whether or not the
  // actual symbol is among them (as many as scoreText was asked for).
  std::vector<Alternative> alternatives;
};

// Every symbol of a text with its surprisal. totalBits sums the predicted symbols;
// bitsPerSymbol divides by their count (the text's length, or one less without context).
struct TextScore {
  std::vector<SymbolScore> symbols;
  double totalBits = 0.0;
  double bitsPerSymbol = 0.0;
  int64_t predictedSymbols = 0;
};

// Scores `text` as the model continues `context` (empty: from the text's second symbol).
// One stream, state carried over windows of `window` symbols, dropout off, no gradients.
// `job` (may be null) gets progress and may cancel. `alternatives` > 0 also lists that many
// most probable symbols at each position (at most the vocabulary).
TextScore scoreText(LanguageModel& model, const Vocabulary& vocabulary, const std::string& text,
                    const std::string& context = "", JobContext* job = nullptr,
                    int64_t window = 256, int64_t alternatives = 0);

// Receives each scored symbol in order (scoreTextStreamed).
using SymbolScoreSink = std::function<void(SymbolScore&& symbol)>;

// scoreText for texts of any length: each symbol goes to `sink` as soon as it is scored and
// is not kept (the returned score has the totals and no symbols), so memory is one window's
// log-probabilities plus the text's ids.
TextScore scoreTextStreamed(LanguageModel& model, const Vocabulary& vocabulary,
                            const std::string& text, const std::string& context,
                            const SymbolScoreSink& sink, JobContext* job = nullptr,
                            int64_t window = 256, int64_t alternatives = 0);

// The same for symbols already in the vocabulary's ids (a corpus split), without context:
// ids[0] is not predicted. Progress spans [from, to] of the job's range.
TextScore scoreSymbols(LanguageModel& model, const Vocabulary& vocabulary,
                       const std::vector<int64_t>& ids, JobContext* job = nullptr,
                       int64_t window = 256, int64_t alternatives = 0, double from = 0.0,
                       double to = 1.0);

// The loss in nats of each symbol ids[1..] given those before it: N - 1 values (the first
// symbol is not predicted). Progress spans [from, to] of the job's range.
std::vector<double> symbolLosses(LanguageModel& model, const std::vector<int64_t>& ids,
                                 JobContext* job = nullptr, int64_t window = 256, double from = 0.0,
                                 double to = 1.0);

}  // namespace mrnn::engine
