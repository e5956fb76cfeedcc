#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace mrnn::engine {

// Loss in every unit a researcher reads. `nats` is the mean negative log-likelihood per
// symbol; bits per word and word perplexity follow Krause eq. 23:
// bits/word = bits/symbol x symbols/words, with words counted in the evaluated text.
struct LossFigures {
  double nats = 0.0;
  double bitsPerSymbol = 0.0;
  double perplexity = 0.0;
  double bitsPerWord = 0.0;     // 0 when the word count is unknown
  double wordPerplexity = 0.0;  // 2^(bits/word)
  int64_t symbols = 0;
  int64_t words = 0;
  // A long-range problem's held-out sequences: the share the model gets wrong by the
  // problem's criterion (it is solved below 1%), and, for the addition problem, the mean
  // squared error in `nats`' place. -1 for corpora.
  double errorRate = -1.0;
  int64_t sequences = 0;  // the held-out sequences errorRate is over
  // A problem with several answer steps (memorisation's recalled symbols): the share of the
  // sequences wrong at each, in order, to see which one a model misses. Empty otherwise.
  std::vector<double> answerErrorRates;
  // A real-valued output (the addition and multiplication problems): `nats` is the mean
  // squared error a scored step, and bits and perplexity, derived from it, mean nothing.
  bool squaredError = false;
  // The road an exact held-out figure took (held_out_reading.h): 1, the text read as one
  // stream; B > 1, B parallel streams stitched into one; 0 when not said.
  int64_t readingStreams = 0;
};

inline LossFigures lossFigures(double nats, int64_t symbols, int64_t words) {
  LossFigures out;
  out.nats = nats;
  out.bitsPerSymbol = nats / std::log(2.0);
  out.perplexity = std::exp(nats);
  out.symbols = symbols;
  out.words = words;
  if (words > 0 && symbols > 0) {
    out.bitsPerWord = out.bitsPerSymbol * static_cast<double>(symbols) / static_cast<double>(words);
    out.wordPerplexity = std::pow(2.0, out.bitsPerWord);
  }
  return out;
}

}  // namespace mrnn::engine
