#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/data/vocabulary.h"
#include "engine/sampling/completion.h"
#include "engine/sampling/sampling_options.h"

namespace mrnn::engine {

// The symbol stream: called for every generated symbol, in order, with the completion's
// index. Data only; progress and stopping go through the JobContext (a cancelled job ends
// generation after the current symbol, that completion with stopReason "stopped").
using SymbolCallback = std::function<void(size_t completion, const GeneratedSymbol& symbol)>;

class JobContext;
class LanguageModel;
class SingleStreamModel;
class GenerationTap;
struct SamplingStart;

// Generates text from a language model: sampling (temperature, top-k, top-p, greedy) or beam
// search, streaming each symbol with its alternatives. The prime is read once per call and
// its state copied for every completion. Runs without autograd; the model is put in eval
// mode and given options.clamps for the call, then restored.
//
// Sampling and branching (one stream at a time) run on a SingleStreamModel, a frozen float
// copy of the model stepped on raw arrays without allocating (engine/inference), whenever
// the model is float32 on the CPU; the copy is made on first use and again whenever a
// parameter has changed since (training, dynamic evaluation). Beam search, and other models
// (a model on a GPU among them), run LanguageModel::forward one step at a time on the
// model's device, each step's next-symbol row read back on the CPU.
class Sampler {
 public:
  Sampler(LanguageModel& model, const Vocabulary& vocabulary);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // false: single-stream sampling through LanguageModel::forward as well (benchmarks, tests).
  void setFastPath(bool enabled) { fastPath_ = enabled; }

  // Throws std::invalid_argument naming the option at fault.
  void check(const SamplingOptions& options) const;
  // The prime's ids. Empty prime: a line break (<eos>, or "\n" where the vocabulary has it).
  // A symbol outside the vocabulary throws std::invalid_argument naming it, except for word
  // models with <unk>, where it becomes <unk>.
  std::vector<int64_t> primeIds(const std::string& prime) const;

  std::vector<Completion> generate(const SamplingOptions& options,
                                   const SymbolCallback& onSymbol = {}, JobContext* job = nullptr);
  // Continues `original` (generated from options.prime) from `position` with symbol
  // `alternative` there instead: symbols before `position` are kept, the state is
  // recomputed from the prime and that prefix, and generation goes on until the completion
  // holds options.maxLength symbols (at least position + 1). Only new symbols are streamed.
  std::vector<Completion> branch(const Completion& original, size_t position, int64_t alternative,
                                 const SamplingOptions& options,
                                 const SymbolCallback& onSymbol = {}, JobContext* job = nullptr);

 private:
  // The frozen copy, current and with the model's settings; null when the model cannot
  // have one or the fast path is off.
  SingleStreamModel* singleStream();
  SamplingStart prime(const std::vector<int64_t>& ids, SingleStreamModel* stream);
  // Reads `token` after `start` (state and next-symbol row advanced).
  void advance(SamplingStart& start, int64_t token, SingleStreamModel* stream);
  std::vector<Completion> continueFrom(SamplingStart start, const SamplingOptions& options,
                                       GenerationTap& tap, SingleStreamModel* stream);
  bool primeEndsLine(const std::string& prime) const;

  LanguageModel& model_;
  const Vocabulary& vocabulary_;
  bool fastPath_ = true;
  std::unique_ptr<SingleStreamModel> frozen_;
};

}  // namespace mrnn::engine
