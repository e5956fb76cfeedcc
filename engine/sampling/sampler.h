#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"
#include "engine/sampling/completion.h"
#include "engine/sampling/sampling_options.h"
#include "engine/sampling/sampling_start.h"

namespace mrnn::engine {

// Called for every generated symbol, in order: the completion's index and the symbol.
// Returning false stops all generation (the current completion ends with "stopped").
using SymbolCallback = std::function<bool(size_t completion, const GeneratedSymbol& symbol)>;

// Generates text from a language model: sampling (temperature, top-k, top-p, greedy) or beam
// search, streaming each symbol with its alternatives. The prime is read once per call and
// its state copied for every completion. Runs without autograd; single-stream sampling
// reuses one input tensor, and its choice of symbol works in preallocated buffers.
// The model is put in eval mode and given options.clamps for the call, then restored.
class Sampler {
 public:
  Sampler(LanguageModel& model, const Vocabulary& vocabulary);

  // Throws std::invalid_argument naming the option at fault.
  void check(const SamplingOptions& options) const;
  // The prime's ids. Empty prime: a line break (<eos>, or "\n" where the vocabulary has it).
  // A symbol outside the vocabulary throws std::invalid_argument naming it, except for word
  // models with <unk>, where it becomes <unk>.
  std::vector<int64_t> primeIds(const std::string& prime) const;

  std::vector<Completion> generate(const SamplingOptions& options,
                                   const SymbolCallback& onSymbol = {});
  // Continues `original` (generated from options.prime) from `position` with symbol
  // `alternative` there instead: symbols before `position` are kept, the state is
  // recomputed from the prime and that prefix, and generation goes on until the completion
  // holds options.maxLength symbols (at least position + 1). Only new symbols are streamed.
  std::vector<Completion> branch(const Completion& original, size_t position, int64_t alternative,
                                 const SamplingOptions& options,
                                 const SymbolCallback& onSymbol = {});

 private:
  SamplingStart prime(const std::vector<int64_t>& ids);
  std::vector<Completion> continueFrom(SamplingStart start, const SamplingOptions& options,
                                       const SymbolCallback& onSymbol);
  bool primeEndsLine(const std::string& prime) const;

  LanguageModel& model_;
  const Vocabulary& vocabulary_;
};

}  // namespace mrnn::engine
