#include "engine/sampling/sampler.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "engine/analysis/model_device.h"
#include "engine/inference/single_stream_model.h"
#include "engine/models/language_model.h"
#include "engine/runtime/job_context.h"
#include "engine/sampling/beam_search.h"
#include "engine/sampling/completion_builder.h"
#include "engine/sampling/sampling_start.h"
#include "engine/sampling/symbol_chooser.h"

namespace mrnn::engine {

// The caller's side of one generation: every symbol to the stream, progress to the job, and
// whether the job was cancelled (then generation stops after the symbol, not by throwing,
// so the completions so far are kept).
class GenerationTap {
 public:
  GenerationTap(const SymbolCallback& onSymbol, JobContext* job, const SamplingOptions& options)
      : onSymbol_(onSymbol), job_(job) {
    const int64_t streams = options.beamWidth > 0 ? options.beamWidth : options.completions;
    total_ = std::max(1.0, static_cast<double>(streams) * static_cast<double>(options.maxLength));
  }
  bool streams() const { return static_cast<bool>(onSymbol_); }
  // false: stop now.
  bool emit(size_t completion, const GeneratedSymbol& symbol) {
    if (onSymbol_) onSymbol_(completion, symbol);
    if (!job_) return true;
    if (job_->cancelled()) return false;
    // A report per percent, not per symbol: the phase text is built only then.
    const double fraction = std::min(1.0, ++done_ / total_);
    if (!job_->reports() || (fraction - reported_ < 0.01 && completion == lastCompletion_)) {
      return true;
    }
    reported_ = fraction;
    lastCompletion_ = completion;
    try {
      job_->report(fraction, "completion " + std::to_string(completion + 1));
    } catch (const JobCancelledError&) {
      return false;
    }
    return true;
  }

 private:
  const SymbolCallback& onSymbol_;
  JobContext* job_;
  double total_ = 1.0;
  double done_ = 0.0;
  double reported_ = -1.0;
  size_t lastCompletion_ = 0;
};

namespace {

// A seed for the branch at `position` to `alternative`: SplitMix64 of the three, so that
// every branch point and choice draws its own stream, the same each time it is asked for.
uint64_t branchSeed(uint64_t seed, size_t position, int64_t alternative) {
  uint64_t x = seed ^ (0x9e3779b97f4a7c15ull * (static_cast<uint64_t>(position) + 1)) ^
               (0xbf58476d1ce4e5b9ull * (static_cast<uint64_t>(alternative) + 1));
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Eval mode and the requested clamps for one call; the model's own settings come back
// afterwards, also when a callback or a cancelled job throws.
class ModelSettingsGuard {
 public:
  ModelSettingsGuard(LanguageModel& model, std::vector<UnitClamp> clamps)
      : model_(model), training_(model.is_training()), clamps_(model.clamps()) {
    model_.setClamps(std::move(clamps));
    model_.eval();
  }
  ~ModelSettingsGuard() {
    model_.setClamps(clamps_);
    model_.train(training_);
  }
  ModelSettingsGuard(const ModelSettingsGuard&) = delete;
  ModelSettingsGuard& operator=(const ModelSettingsGuard&) = delete;

 private:
  LanguageModel& model_;
  bool training_;
  std::vector<UnitClamp> clamps_;
};

ModelState cloneState(const ModelState& state) {
  ModelState copy;
  for (const auto& layer : state.layers) {
    CellState parts;
    for (const auto& part : layer.parts) parts.parts.push_back(part.clone());
    copy.layers.push_back(std::move(parts));
  }
  return copy;
}

// The last step's next-symbol log-probabilities as a float [V] row the chooser can read: on
// the CPU, wherever the model runs.
torch::Tensor lastRow(const torch::Tensor& logp) {
  return logp[logp.size(0) - 1][0].to(torch::kCPU, torch::kFloat).contiguous();
}

// A frozen model's next-symbol row as the float [V] tensor a SamplingStart holds.
torch::Tensor rowOf(const float* logp, int64_t vocab) {
  return torch::from_blob(const_cast<float*>(logp), {vocab}, torch::kFloat).clone();
}

// Symbol `id` chosen from `logp` after `completion`, with the top alternatives.
GeneratedSymbol describe(SymbolChooser& chooser, const float* logp, int64_t id,
                         const Completion& completion, const CompletionBuilder& builder,
                         int64_t alternatives, std::vector<int64_t>& top) {
  GeneratedSymbol symbol;
  symbol.id = id;
  symbol.text = builder.pieceFor(completion, id);
  symbol.logProbability = logp[id];
  symbol.probability = std::exp(symbol.logProbability);
  chooser.mostProbable(logp, alternatives, top);
  symbol.alternatives.reserve(top.size());
  for (const int64_t other : top) {
    symbol.alternatives.push_back({other, builder.symbolName(other), std::exp(logp[other])});
  }
  return symbol;
}

}  // namespace

Sampler::Sampler(LanguageModel& model, const Vocabulary& vocabulary)
    : model_(model), vocabulary_(vocabulary) {
  if (model.vocab() != vocabulary.size()) {
    throw std::invalid_argument("the model has " + std::to_string(model.vocab()) +
                                " symbols but the vocabulary " + std::to_string(vocabulary.size()));
  }
}

Sampler::~Sampler() = default;

SingleStreamModel* Sampler::singleStream() {
  if (!fastPath_ || !SingleStreamModel::supports(model_)) return nullptr;
  // Rebuilt when stale: copying the weights costs about as much as one or two generated
  // symbols, so the copy is kept between calls only as long as no parameter changed.
  if (!frozen_ || !frozen_->isCurrent(model_)) {
    frozen_.reset();  // the old copy's memory goes before the new one's comes
    frozen_ = std::make_unique<SingleStreamModel>(model_);
  } else {
    frozen_->readSettings(model_);
  }
  return frozen_.get();
}

void Sampler::check(const SamplingOptions& o) const {
  auto fail = [](const std::string& message) { throw std::invalid_argument(message); };
  if (o.maxLength < 1) fail("length must be at least 1, not " + std::to_string(o.maxLength));
  if (!(o.temperature >= kMinTemperature && o.temperature <= kMaxTemperature)) {
    std::ostringstream text;
    text << "temperature must lie in [" << kMinTemperature << ", " << kMaxTemperature << "], not "
         << o.temperature;
    fail(text.str());
  }
  if (o.topK < 0) fail("top-k must be 0 (off) or positive, not " + std::to_string(o.topK));
  if (!(o.topP > 0.0 && o.topP <= 1.0)) {
    std::ostringstream text;
    text << "top-p must lie in (0, 1], not " << o.topP;
    fail(text.str());
  }
  if (o.beamWidth < 0) fail("beam width must be 0 (off) or positive");
  if (o.completions < 1) fail("completions must be at least 1");
  if (o.alternatives < 0) fail("alternatives must not be negative");
  for (const auto& clamp : o.clamps) {
    if (!std::isfinite(clamp.value)) {
      fail("clamp of layer " + std::to_string(clamp.layer + 1) + " unit " +
           std::to_string(clamp.unit) + ": the value must be a finite number, not " +
           (std::isnan(clamp.value) ? "NaN"
            : clamp.value > 0       ? "infinity"
                                    : "-infinity"));
    }
  }
}

std::vector<int64_t> Sampler::primeIds(const std::string& prime) const {
  if (prime.empty()) {
    int64_t start = vocabulary_.eosId();
    if (start < 0) start = vocabulary_.find("\n");
    return {start < 0 ? 0 : start};
  }
  try {
    return vocabulary_.encode(prime);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("the prime text cannot be read by this " +
                                inputLevelName(vocabulary_.level()) + " model: " + error.what());
  }
}

bool Sampler::primeEndsLine(const std::string& prime) const {
  return prime.empty() || prime.back() == '\n';
}

SamplingStart Sampler::prime(const std::vector<int64_t>& ids, SingleStreamModel* stream) {
  SamplingStart start;
  if (ids.empty()) throw std::invalid_argument("the prime holds no symbol of the vocabulary");
  if (stream) {
    stream->reset();
    const float* logp = nullptr;
    for (const int64_t id : ids) logp = stream->step(id);
    start.state = stream->exportState();
    start.next = rowOf(logp, stream->vocab());
    return start;
  }
  start.state = model_.initialState(1);
  const auto tokens = torch::tensor(ids, torch::kLong).view({-1, 1}).to(modelDevice(model_));
  start.next = lastRow(model_.forward(tokens, start.state));
  return start;
}

void Sampler::advance(SamplingStart& start, int64_t token, SingleStreamModel* stream) {
  if (stream) {
    stream->importState(start.state);
    start.next = rowOf(stream->step(token), stream->vocab());
    start.state = stream->exportState();
    return;
  }
  const auto input =
      torch::full({1, 1}, token, torch::TensorOptions(torch::kLong).device(modelDevice(model_)));
  start.next = lastRow(model_.forward(input, start.state));
}

std::vector<Completion> Sampler::generate(const SamplingOptions& options,
                                          const SymbolCallback& onSymbol, JobContext* job) {
  GenerationTap tap(onSymbol, job, options);
  check(options);
  const auto ids = primeIds(options.prime);
  torch::NoGradGuard noGrad;
  ModelSettingsGuard settings(model_, options.clamps);
  SingleStreamModel* stream = options.beamWidth > 0 ? nullptr : singleStream();
  return continueFrom(prime(ids, stream), options, tap, stream);
}

std::vector<Completion> Sampler::branch(const Completion& original, size_t position,
                                        int64_t alternative, const SamplingOptions& options,
                                        const SymbolCallback& onSymbol, JobContext* job) {
  GenerationTap tap(onSymbol, job, options);
  check(options);
  if (position > original.symbols.size()) {
    throw std::out_of_range("cannot branch at position " + std::to_string(position) +
                            ": the completion has " + std::to_string(original.symbols.size()) +
                            " symbols");
  }
  if (alternative < 0 || alternative >= vocabulary_.size()) {
    throw std::out_of_range("symbol id " + std::to_string(alternative) +
                            " is outside the vocabulary of " + std::to_string(vocabulary_.size()));
  }
  auto ids = primeIds(options.prime);
  for (size_t i = 0; i < position; ++i) ids.push_back(original.symbols[i].id);
  torch::NoGradGuard noGrad;
  ModelSettingsGuard settings(model_, options.clamps);
  SingleStreamModel* stream = options.beamWidth > 0 ? nullptr : singleStream();
  SamplingStart start = prime(ids, stream);
  // The kept prefix, re-built so that its text and log-probability follow the same rules.
  const CompletionBuilder builder(vocabulary_, options.stopStrings, primeEndsLine(options.prime));
  const CompletionBuilder plain(vocabulary_, {}, primeEndsLine(options.prime));
  Completion head;
  for (size_t i = 0; i < position; ++i) plain.append(head, original.symbols[i]);
  // The chosen symbol, with its probability and alternatives under the model.
  SymbolChooser chooser(options, vocabulary_.size());
  std::vector<int64_t> top;
  GeneratedSymbol symbol = describe(chooser, start.next.data_ptr<float>(), alternative, head,
                                    builder, options.alternatives, top);
  const bool stop = builder.append(head, std::move(symbol));
  if (!tap.emit(0, head.symbols.back())) {
    head.stopReason = "stopped";
    return {head};
  }
  if (stop || static_cast<int64_t>(head.symbols.size()) >= options.maxLength) {
    head.stopReason = stop ? "stop string" : "length";
    return {head};
  }
  // Advance past the chosen symbol and go on as generate() would, with a random stream of
  // the branch's own: the seed's stream would replay the original completion's draws from
  // its first symbol, which in a confident model replays its text word for word.
  advance(start, alternative, stream);
  start.prefix = std::move(head);
  SamplingOptions own = options;
  own.seed = branchSeed(options.seed, position, alternative);
  return continueFrom(std::move(start), own, tap, stream);
}

std::vector<Completion> Sampler::continueFrom(SamplingStart start, const SamplingOptions& options,
                                              GenerationTap& tap, SingleStreamModel* stream) {
  const CompletionBuilder builder(vocabulary_, options.stopStrings, primeEndsLine(options.prime));
  if (options.beamWidth > 0) {
    BeamSearch search(model_, vocabulary_, options, builder);
    auto results = search.run(start);
    bool streaming = tap.streams();
    for (size_t c = 0; c < results.size() && streaming; ++c) {
      for (size_t i = start.prefix.symbols.size(); i < results[c].symbols.size() && streaming;
           ++i) {
        streaming = tap.emit(c, results[c].symbols[i]);
      }
    }
    return results;
  }
  const int64_t vocab = vocabulary_.size();
  SymbolChooser chooser(options, vocab);
  std::vector<int64_t> top;
  // The generic path's input, refilled every step, on the model's device.
  torch::Tensor input =
      torch::zeros({1, 1}, torch::TensorOptions(torch::kLong).device(modelDevice(model_)));
  std::vector<Completion> results;
  bool stopped = false;
  for (int64_t c = 0; c < options.completions && !stopped; ++c) {
    Completion completion = start.prefix;
    if (static_cast<int64_t>(completion.symbols.size()) >= options.maxLength) {
      completion.stopReason = "length";  // a branch already as long as asked
      results.push_back(std::move(completion));
      continue;
    }
    // Each completion is one stream from the prime's state: the frozen model's buffers
    // (a copy of a few floats per unit), or cloned tensors for the generic path.
    int64_t generated = static_cast<int64_t>(completion.symbols.size());
    ModelState state;
    if (stream) {
      stream->importState(start.state);
    } else {
      state = cloneState(start.state);
    }
    torch::Tensor row = start.next;
    const float* logp = row.data_ptr<float>();
    while (true) {
      const int64_t id = chooser.choose(logp);
      GeneratedSymbol symbol =
          describe(chooser, logp, id, completion, builder, options.alternatives, top);
      const bool stop = builder.append(completion, std::move(symbol));
      ++generated;
      if (!tap.emit(static_cast<size_t>(c), completion.symbols.back())) {
        completion.stopReason = "stopped";
        stopped = true;
        break;
      }
      if (stop) {
        completion.stopReason = "stop string";
        break;
      }
      if (generated >= options.maxLength) {
        completion.stopReason = "length";
        break;
      }
      if (!options.keepSymbols) builder.forget(completion);
      if (stream) {
        logp = stream->step(id);  // no LibTorch, no allocation
        continue;
      }
      input.fill_(id);
      // The chooser reads raw floats: one row [V] comes back from a GPU each step.
      row = model_.forward(input, state).to(torch::kCPU, torch::kFloat).contiguous();
      logp = row.data_ptr<float>();
    }
    if (!options.keepSymbols) {
      // Streamed: a tail kept per completion would still grow with their number. The last
      // stands for all (its stop reason).
      builder.forget(completion);
      results.clear();
    }
    results.push_back(std::move(completion));
  }
  return results;
}

}  // namespace mrnn::engine
