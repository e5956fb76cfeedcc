#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mrnn::engine {

// One candidate symbol at a generated position, with the model's probability (temperature
// 1, before any top-k or top-p filtering).
struct Alternative {
  int64_t id = 0;
  std::string symbol;
  double probability = 0.0;
};

// A generated symbol. `text` is what it adds to the completion (word models: the word with
// its separating space, or "\n" for <eos>); `probability` is the model's, as above.
struct GeneratedSymbol {
  int64_t id = 0;
  std::string text;
  double probability = 0.0;
  double logProbability = 0.0;            // natural log, kept exact where probability underflows
  std::vector<Alternative> alternatives;  // most probable first
};

// One completion of the prime. logProbability is the sum of the model's natural-log
// probabilities of its symbols. stopReason: "length", "stop string" or "stopped" (the
// streaming callback asked to stop).
struct Completion {
  std::string text;
  std::vector<GeneratedSymbol> symbols;
  double logProbability = 0.0;
  std::string stopReason;
};

}  // namespace mrnn::engine
