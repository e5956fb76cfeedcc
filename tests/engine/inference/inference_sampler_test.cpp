// The Sampler on its fast path (the frozen single-stream model) against the generic path
// (LanguageModel::forward per step): the same text for the same seed, the same
// probabilities; changed weights picked up; models the fast path cannot take still sampled.

#include <torch/torch.h>

#include <cmath>

#include "engine/data/vocabulary.h"
#include "engine/inference/single_stream_model.h"
#include "engine/models/language_model.h"
#include "engine/sampling/sampler.h"
#include "test_harness.h"

using namespace mrnn;
using engine::Completion;
using engine::SamplingOptions;

namespace {

engine::Vocabulary vocabulary() {
  return engine::Vocabulary::fromSymbols(engine::InputLevel::Char,
                                         {"\n", " ", "a", "b", "c", "d", "e", "f", "g", "h"});
}

engine::ModelConfig config(engine::CellType type, int layers = 2) {
  engine::ModelConfig config;
  config.input.embeddingSize = 8;
  for (int i = 0; i < layers; ++i) {
    engine::LayerConfig layer;
    layer.type = type;
    layer.hiddenSize = 24;
    layer.weightNorm = i == 0;
    layer.rank = 4;  // Mogrifier: below the embedding width
    config.layers.push_back(layer);
  }
  config.init.seed = 5;
  return config;
}

SamplingOptions options(const std::string& prime, int64_t length, uint64_t seed) {
  SamplingOptions o;
  o.prime = prime;
  o.maxLength = length;
  o.seed = seed;
  o.temperature = 1.5;  // flatter: more distinct paths for the two samplers to agree on
  return o;
}

// Every generated symbol's log-probability under a fresh LanguageModel::forward.
void expectScoredByTheModel(engine::LanguageModel& model, const engine::Vocabulary& vocab,
                            const std::string& prime, const Completion& completion) {
  torch::NoGradGuard noGrad;
  std::vector<int64_t> ids = vocab.encode(prime);
  const auto primeLength = static_cast<int64_t>(ids.size());
  for (const auto& symbol : completion.symbols) ids.push_back(symbol.id);
  auto state = model.initialState(1);
  const auto logp = model.forward(torch::tensor(ids, torch::kLong).view({-1, 1}), state);
  for (size_t i = 0; i < completion.symbols.size(); ++i) {
    const auto row = logp[primeLength - 1 + static_cast<int64_t>(i)][0];
    EXPECT_NEAR(completion.symbols[i].logProbability, row[completion.symbols[i].id].item<double>(),
                1e-5);
    EXPECT_NEAR(completion.symbols[i].alternatives.front().probability,
                row.max().exp().item<double>(), 1e-5);
  }
}

void expectSameCompletions(const std::vector<Completion>& fast,
                           const std::vector<Completion>& generic) {
  EXPECT_EQ(fast.size(), generic.size());
  for (size_t c = 0; c < fast.size() && c < generic.size(); ++c) {
    EXPECT_EQ(fast[c].text, generic[c].text);
    EXPECT_EQ(fast[c].stopReason, generic[c].stopReason);
    EXPECT_NEAR(fast[c].logProbability, generic[c].logProbability, 1e-4);
    for (size_t i = 0; i < fast[c].symbols.size() && i < generic[c].symbols.size(); ++i) {
      EXPECT_NEAR(fast[c].symbols[i].logProbability, generic[c].symbols[i].logProbability, 1e-5);
    }
  }
}

}  // namespace

MRNN_TEST(fast_and_generic_sampling_agree_for_every_cell) {
  const auto vocab = vocabulary();
  for (engine::CellType type : engine::allCellTypes()) {
    engine::LanguageModel model(config(type), vocab.size());
    engine::Sampler fast(model, vocab);
    engine::Sampler generic(model, vocab);
    generic.setFastPath(false);
    auto o = options("abc", 40, 7);
    o.completions = 2;
    o.topK = 6;
    const auto a = fast.generate(o);
    const auto b = generic.generate(o);
    expectSameCompletions(a, b);
    for (const auto& completion : a) expectScoredByTheModel(model, vocab, "abc", completion);
  }
}

MRNN_TEST(branching_on_the_fast_path_matches_the_generic_path) {
  const auto vocab = vocabulary();
  engine::LanguageModel model(config(engine::CellType::Mlstm), vocab.size());
  engine::Sampler fast(model, vocab);
  engine::Sampler generic(model, vocab);
  generic.setFastPath(false);
  const auto o = options("ba", 30, 3);
  const auto original = fast.generate(o).front();
  const int64_t alternative = original.symbols[12].alternatives.back().id;
  const auto a = fast.branch(original, 12, alternative, o);
  const auto b = generic.branch(original, 12, alternative, o);
  expectSameCompletions(a, b);
  EXPECT_EQ(a.front().symbols[12].id, alternative);
  // With clamps too.
  auto clamped = o;
  clamped.clamps = {{1, 4, 0.9}};
  expectSameCompletions(fast.generate(clamped), generic.generate(clamped));
  expectSameCompletions(fast.branch(original, 5, alternative, clamped),
                        generic.branch(original, 5, alternative, clamped));
}

// Dynamic evaluation and training change the weights in place; the next call samples from
// the changed model, not from the copy made before.
MRNN_TEST(the_sampler_picks_up_changed_weights) {
  const auto vocab = vocabulary();
  engine::LanguageModel model(config(engine::CellType::Gru), vocab.size());
  engine::Sampler sampler(model, vocab);
  const auto o = options("abc", 25, 11);
  const auto before = sampler.generate(o).front();
  expectScoredByTheModel(model, vocab, "abc", before);
  // One SGD step on a text, as dynamic evaluation takes (the model stays in eval mode).
  torch::optim::SGD optimiser(model.parameters(), torch::optim::SGDOptions(0.5));
  auto state = model.initialState(1);
  const auto ids = vocab.encode("abcabcabcabc");
  const auto tokens = torch::tensor(ids, torch::kLong).view({-1, 1});
  const auto logp = model.forward(tokens.narrow(0, 0, tokens.size(0) - 1), state);
  const auto loss = torch::nll_loss(logp.view({-1, vocab.size()}),
                                    tokens.narrow(0, 1, tokens.size(0) - 1).view({-1}));
  optimiser.zero_grad();
  loss.backward();
  optimiser.step();
  const auto after = sampler.generate(o).front();
  expectScoredByTheModel(model, vocab, "abc", after);
  EXPECT(std::fabs(after.symbols.front().logProbability - before.symbols.front().logProbability) >
         1e-4);
}

MRNN_TEST(models_the_fast_path_cannot_take_are_still_sampled) {
  const auto vocab = vocabulary();
  engine::LanguageModel model(config(engine::CellType::Lstm, 1), vocab.size());
  model.to(torch::kDouble);
  EXPECT(!engine::SingleStreamModel::supports(model));
  engine::Sampler sampler(model, vocab);
  const auto completion = sampler.generate(options("ab", 20, 2)).front();
  EXPECT_EQ(completion.symbols.size(), size_t{20});
  expectScoredByTheModel(model, vocab, "ab", completion);
}
