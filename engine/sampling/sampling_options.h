#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/models/unit_clamp.h"

namespace mrnn::engine {

// The temperatures sampling takes: below, logits divided by it overflow to infinity; above,
// every symbol is equally likely to many digits.
constexpr double kMinTemperature = 1e-6;
constexpr double kMaxTemperature = 1e3;

// What `mrnn sample` and the sampling view ask for. Sampling applies temperature, then
// top-k, then top-p to the model's distribution; greedy takes the most probable symbol;
// beamWidth > 0 runs beam search instead (ignoring temperature, top-k, top-p and seed).
struct SamplingOptions {
  std::string prime;        // text the model reads first; empty: starts after a line break
  int64_t maxLength = 200;  // symbols generated per completion
  double temperature = 1.0;
  int64_t topK = 0;   // 0: off
  double topP = 1.0;  // 1: off
  bool greedy = false;
  int64_t beamWidth = 0;  // 0: sampling; N: the best N beams by total log-probability
  std::vector<std::string> stopStrings;  // generation ends right after the first one produced
  int64_t completions = 1;               // independent completions, all from the same prime
  uint64_t seed = 1;
  int64_t alternatives = 5;       // top-N symbols reported for every generated position
  std::vector<UnitClamp> clamps;  // held while priming and generating
  // false (sampling only): symbols go to the stream and are not kept, so any length and any
  // number of completions run in bounded memory; generate() then returns the last completion
  // alone, holding only its log-probability, stop reason and the text's last few characters.
  bool keepSymbols = true;
};

// The memory symbols kept to the end take (JSON output, beam search): each of the
// max(completions, beamWidth) texts keeps its symbols with their alternatives, and a beam
// step holds the surviving beams twice while it builds the next ones. Linear in the width.
inline double keptSymbolsBytes(const SamplingOptions& options) {
  const double perSymbol = 160.0 + 80.0 * static_cast<double>(options.alternatives);
  const double texts = static_cast<double>(
      options.completions > options.beamWidth ? options.completions : options.beamWidth);
  const double copies = options.beamWidth > 0 ? 2.0 : 1.0;
  return copies * perSymbol * texts * static_cast<double>(options.maxLength);
}

}  // namespace mrnn::engine
