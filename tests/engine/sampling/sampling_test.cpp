// Sampling and completion on small in-process models (no checkpoints): known answers for
// seeds, temperature, top-k, top-p, greedy and beam search, checked against an independent
// re-scoring of the generated text by the model.

#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <set>

#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"
#include "engine/sampling/sampler.h"
#include "engine/sampling/sampling_job.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;
using engine::Completion;
using engine::SamplingOptions;

namespace {

engine::Vocabulary charVocabulary() {
  return engine::Vocabulary::fromSymbols(engine::InputLevel::Char,
                                         {"\n", " ", "a", "b", "c", "d", "e", "f", "g", "h"});
}

engine::Vocabulary wordVocabulary() {
  return engine::Vocabulary::fromSymbols(engine::InputLevel::Word,
                                         {"<unk>", "<eos>", "the", "cat", "sat", "on", "mat"});
}

engine::ModelConfig smallModel(int layers = 1) {
  engine::ModelConfig config;
  config.input.embeddingSize = 8;
  for (int i = 0; i < layers; ++i) {
    engine::LayerConfig layer;
    layer.type = engine::CellType::Mlstm;
    layer.hiddenSize = 16;
    config.layers.push_back(layer);
  }
  config.init.seed = 7;
  return config;
}

// Log-probabilities [N, V] the model gives each generated symbol's position, recomputed
// from scratch: prime, then every generated symbol but the last.
torch::Tensor rescore(engine::LanguageModel& model, const std::vector<int64_t>& prime,
                      const Completion& completion) {
  torch::NoGradGuard noGrad;
  std::vector<int64_t> ids = prime;
  for (const auto& symbol : completion.symbols) ids.push_back(symbol.id);
  ids.pop_back();
  auto state = model.initialState(1);
  const auto logp = model.forward(torch::tensor(ids, torch::kLong).view({-1, 1}), state);
  const auto rows = static_cast<int64_t>(completion.symbols.size());
  return logp.narrow(0, static_cast<int64_t>(prime.size()) - 1, rows).reshape({rows, -1});
}

std::vector<int64_t> idsOf(const Completion& completion) {
  std::vector<int64_t> ids;
  for (const auto& symbol : completion.symbols) ids.push_back(symbol.id);
  return ids;
}

struct Fixture {
  engine::Vocabulary vocabulary = charVocabulary();
  engine::LanguageModel model{smallModel(), vocabulary.size()};
  engine::Sampler sampler{model, vocabulary};
  Fixture() { model.eval(); }
};

SamplingOptions options(const std::string& prime, int64_t length) {
  SamplingOptions o;
  o.prime = prime;
  o.maxLength = length;
  return o;
}

}  // namespace

MRNN_TEST(same_seed_gives_the_same_text) {
  Fixture f;
  auto o = options("abc", 60);
  o.seed = 42;
  const auto first = f.sampler.generate(o);
  const auto again = f.sampler.generate(o);
  EXPECT_EQ(first.front().text, again.front().text);
  EXPECT_EQ(first.front().text.size(), size_t{60});
  EXPECT_EQ(first.front().stopReason, std::string("length"));
  o.seed = 43;
  EXPECT(f.sampler.generate(o).front().text != first.front().text);
}

MRNN_TEST(completions_are_independent_draws_from_one_prime) {
  Fixture f;
  auto o = options("ab", 40);
  o.completions = 3;
  const auto results = f.sampler.generate(o);
  EXPECT_EQ(results.size(), size_t{3});
  EXPECT(results[0].text != results[1].text || results[1].text != results[2].text);
  const auto prime = f.vocabulary.encode("ab");
  for (const auto& c : results) {
    const auto logp = rescore(f.model, prime, c);
    double total = 0.0;
    for (size_t i = 0; i < c.symbols.size(); ++i) {
      const double expected = logp[static_cast<int64_t>(i)][c.symbols[i].id].item<double>();
      EXPECT_NEAR(c.symbols[i].logProbability, expected, 1e-5);
      total += expected;
    }
    EXPECT_NEAR(c.logProbability, total, 1e-4);
  }
}

MRNN_TEST(temperature_near_zero_equals_greedy) {
  Fixture f;
  auto greedy = options("abc", 50);
  greedy.greedy = true;
  auto cold = options("abc", 50);
  cold.temperature = 1e-4;
  cold.seed = 9;
  const auto g = f.sampler.generate(greedy).front();
  const auto coldText = f.sampler.generate(cold).front().text;
  EXPECT_EQ(coldText, g.text);
  // Greedy picks the model's most probable symbol at every position.
  const auto logp = rescore(f.model, f.vocabulary.encode("abc"), g);
  for (size_t i = 0; i < g.symbols.size(); ++i) {
    EXPECT_EQ(g.symbols[i].id, logp[static_cast<int64_t>(i)].argmax().item<int64_t>());
    EXPECT_EQ(g.symbols[i].alternatives.front().id, g.symbols[i].id);
  }
}

MRNN_TEST(top_k_never_emits_outside_the_top_k) {
  Fixture f;
  auto o = options("a", 300);
  o.topK = 3;
  o.temperature = 3.0;  // flatten, so that symbols beyond the top 3 would often be drawn
  o.alternatives = 3;
  const auto c = f.sampler.generate(o).front();
  const auto logp = rescore(f.model, f.vocabulary.encode("a"), c);
  std::set<int64_t> emitted;
  for (size_t i = 0; i < c.symbols.size(); ++i) {
    const auto top = std::get<1>(logp[static_cast<int64_t>(i)].topk(3));
    bool inside = false;
    for (int64_t k = 0; k < 3; ++k) inside = inside || top[k].item<int64_t>() == c.symbols[i].id;
    EXPECT_MSG(inside, "position " << i << " emitted " << c.symbols[i].id);
    for (int64_t k = 0; k < 3; ++k) {
      EXPECT_EQ(c.symbols[i].alternatives[static_cast<size_t>(k)].id, top[k].item<int64_t>());
    }
    emitted.insert(c.symbols[i].id);
  }
  EXPECT(emitted.size() > 1);  // it did sample
}

MRNN_TEST(top_p_emits_only_nucleus_symbols) {
  Fixture f;
  auto o = options("a", 300);
  o.topP = 0.5;
  const auto c = f.sampler.generate(o).front();
  const auto probabilities = rescore(f.model, f.vocabulary.encode("a"), c).exp();
  for (size_t i = 0; i < c.symbols.size(); ++i) {
    const auto row = probabilities[static_cast<int64_t>(i)];
    const double own = row[c.symbols[i].id].item<double>();
    // In the nucleus: the symbols more probable than it hold less than top-p of the mass.
    const double above = (row * (row > own)).sum().item<double>();
    EXPECT_MSG(above < 0.5 + 1e-6, "position " << i << ": mass above " << above);
  }
}

MRNN_TEST(beam_width_one_equals_greedy) {
  Fixture f;
  auto greedy = options("ba", 40);
  greedy.greedy = true;
  auto beam = options("ba", 40);
  beam.beamWidth = 1;
  const auto b = f.sampler.generate(beam);
  EXPECT_EQ(b.size(), size_t{1});
  const auto greedyText = f.sampler.generate(greedy).front().text;
  EXPECT_EQ(b.front().text, greedyText);
}

MRNN_TEST(beams_are_sorted_and_scored_by_the_model) {
  Fixture f;
  auto o = options("ba", 12);
  o.beamWidth = 4;
  const auto beams = f.sampler.generate(o);
  EXPECT_EQ(beams.size(), size_t{4});
  const auto prime = f.vocabulary.encode("ba");
  for (size_t i = 0; i < beams.size(); ++i) {
    if (i > 0) EXPECT(beams[i - 1].logProbability >= beams[i].logProbability);
    const auto logp = rescore(f.model, prime, beams[i]);
    double total = 0.0;
    for (size_t s = 0; s < beams[i].symbols.size(); ++s) {
      total += logp[static_cast<int64_t>(s)][beams[i].symbols[s].id].item<double>();
    }
    EXPECT_NEAR(beams[i].logProbability, total, 1e-4);
    EXPECT_EQ(f.vocabulary.decode(idsOf(beams[i])), beams[i].text);
  }
}

MRNN_TEST(stop_strings_end_generation_right_after_them) {
  Fixture f;
  auto o = options("a", 5000);
  o.stopStrings = {"zz", "bc"};
  const auto c = f.sampler.generate(o).front();
  EXPECT_EQ(c.stopReason, std::string("stop string"));
  EXPECT_EQ(c.text.find("bc"), c.text.size() - 2);
  EXPECT_EQ(c.text, f.vocabulary.decode(idsOf(c)));
  auto beam = o;
  beam.maxLength = 60;
  beam.beamWidth = 3;
  beam.stopStrings = {"a"};
  for (const auto& b : f.sampler.generate(beam)) {
    if (b.stopReason == "stop string") EXPECT_EQ(b.text.find('a'), b.text.size() - 1);
  }
}

MRNN_TEST(clamped_units_stay_clamped) {
  engine::Vocabulary vocabulary = charVocabulary();
  engine::LanguageModel model(smallModel(2), vocabulary.size());
  model.eval();
  engine::Sampler sampler(model, vocabulary);
  auto o = options("abc", 30);
  o.clamps = {{0, 3, 0.75}, {1, 5, -0.5}};
  const auto c = sampler.generate(o).front();
  EXPECT(model.clamps().empty());  // restored after the call
  // Replay the same symbols step by step with the clamps: the units hold their values at
  // every step and the model's probabilities are the ones the sampler reported.
  torch::NoGradGuard noGrad;
  model.setClamps(o.clamps);
  auto state = model.initialState(1);
  auto logp = model.forward(torch::tensor(vocabulary.encode("abc")).view({-1, 1}), state);
  for (const auto& symbol : c.symbols) {
    EXPECT_NEAR(state.layers[0].h()[0][3].item<double>(), 0.75, 1e-7);
    EXPECT_NEAR(state.layers[1].h()[0][5].item<double>(), -0.5, 1e-7);
    EXPECT_NEAR(symbol.logProbability, logp[-1][0][symbol.id].item<double>(), 1e-5);
    logp = model.forward(torch::full({1, 1}, symbol.id, torch::kLong), state);
  }
  model.setClamps({});
  // Without the clamps the same text is scored differently: the clamp was in force.
  const auto free = rescore(model, vocabulary.encode("abc"), c);
  double difference = 0.0;
  for (size_t i = 0; i < c.symbols.size(); ++i) {
    difference += std::fabs(free[static_cast<int64_t>(i)][c.symbols[i].id].item<double>() -
                            c.symbols[i].logProbability);
  }
  EXPECT(difference > 1e-3);
  auto bad = o;
  bad.clamps = {{0, 99, 1.0}};
  EXPECT_THROWS_WITH(std::invalid_argument, sampler.generate(bad), "unit 99");
}

MRNN_TEST(a_branch_draws_its_own_random_stream) {
  Fixture f;
  auto o = options("abc", 60);
  const auto original = f.sampler.generate(o).front();
  const size_t position = 4;
  const int64_t alternative = (original.symbols[position].id + 1) % f.vocabulary.size();
  const auto branched = f.sampler.branch(original, position, alternative, o).front();
  // The seed's stream from its start would give the branch completion 1's symbols again
  // (this untrained model's distributions are nearly the same in every state).
  size_t replayed = 0;
  const size_t after = branched.symbols.size() - position - 1;
  for (size_t k = 0; k < after; ++k) {
    replayed += branched.symbols[position + 1 + k].id == original.symbols[k].id ? 1 : 0;
  }
  EXPECT_MSG(replayed < after / 2, std::to_string(replayed) + " of " + std::to_string(after) +
                                       " symbols replay the original's");
  // The same branch asked for twice is the same text.
  const auto again = f.sampler.branch(original, position, alternative, o);
  EXPECT_EQ(again.front().text, branched.text);
}

MRNN_TEST(branch_keeps_the_prefix_and_takes_the_alternative) {
  Fixture f;
  auto o = options("abc", 30);
  o.seed = 5;
  const auto original = f.sampler.generate(o).front();
  const size_t position = 10;
  int64_t alternative = original.symbols[position].alternatives.back().id;
  if (alternative == original.symbols[position].id) {
    alternative = original.symbols[position].alternatives.front().id;
  }
  const auto branched = f.sampler.branch(original, position, alternative, o).front();
  EXPECT_EQ(branched.symbols.size(), size_t{30});
  for (size_t i = 0; i < position; ++i) EXPECT_EQ(branched.symbols[i].id, original.symbols[i].id);
  EXPECT_EQ(branched.symbols[position].id, alternative);
  EXPECT_EQ(branched.text.substr(0, position), original.text.substr(0, position));
  const auto logp = rescore(f.model, f.vocabulary.encode("abc"), branched);
  double total = 0.0;
  for (size_t i = 0; i < branched.symbols.size(); ++i) {
    total += logp[static_cast<int64_t>(i)][branched.symbols[i].id].item<double>();
  }
  EXPECT_NEAR(branched.logProbability, total, 1e-4);
  EXPECT_NEAR(branched.symbols[position].probability,
              std::exp(logp[static_cast<int64_t>(position)][alternative].item<double>()), 1e-6);
  EXPECT_THROWS_WITH(std::out_of_range, f.sampler.branch(original, 31, 0, o), "position 31");
  EXPECT_THROWS_WITH(std::out_of_range, f.sampler.branch(original, 3, 99, o), "99");
}

MRNN_TEST(prime_outside_the_vocabulary_is_reported_or_mapped_to_unk) {
  Fixture f;
  EXPECT_THROWS_WITH(std::invalid_argument, f.sampler.generate(options("abz", 5)), "prime", "'z'",
                     "not in the vocabulary");
  engine::Vocabulary words = wordVocabulary();
  engine::LanguageModel model(smallModel(), words.size());
  engine::Sampler sampler(model, words);
  const auto primeIds = sampler.primeIds("the dog sat");
  EXPECT_EQ(primeIds.at(1), words.unkId());
  auto o = options("the dog sat", 20);
  const auto c = sampler.generate(o).front();
  EXPECT_EQ(c.symbols.size(), size_t{20});
  // Word text: words after the prime's last word start with a space, <eos> is a line break.
  // Word text: after the prime's last word, a word starts with a space; <eos> is "\n".
  const std::string decoded = words.decode(idsOf(c));
  EXPECT_EQ(c.text, c.symbols.front().id == words.eosId() ? decoded : " " + decoded);
  std::string rebuilt;
  for (const auto& symbol : c.symbols) rebuilt += symbol.text;
  EXPECT_EQ(rebuilt, c.text);
  auto empty = options("", 20);
  const auto fromStart = sampler.generate(empty).front();
  EXPECT_EQ(fromStart.text, words.decode(idsOf(fromStart)));
  // Byte models read any prime.
  engine::Vocabulary bytes = engine::Vocabulary::bytes();
  engine::LanguageModel byteModel(smallModel(), bytes.size());
  engine::Sampler byteSampler(byteModel, bytes);
  EXPECT_EQ(byteSampler.generate(options("\xff\x01 z", 8)).front().symbols.size(), size_t{8});
}

MRNN_TEST(streaming_calls_back_once_per_symbol_and_can_stop) {
  Fixture f;
  auto o = options("a", 25);
  o.completions = 2;
  size_t calls = 0;
  std::string streamed;
  auto results = f.sampler.generate(o, [&](size_t completion, const engine::GeneratedSymbol& s) {
    ++calls;
    if (completion == 0) streamed += s.text;
  });
  EXPECT_EQ(calls, size_t{50});
  EXPECT_EQ(streamed, results.front().text);
  calls = 0;
  engine::StopToken stop;
  engine::JobContext job({}, stop);
  results = f.sampler.generate(
      o,
      [&](size_t, const engine::GeneratedSymbol&) {
        if (++calls >= 5) stop.requestStop();
      },
      &job);
  EXPECT_EQ(calls, size_t{5});
  EXPECT_EQ(results.size(), size_t{1});
  EXPECT_EQ(results.front().symbols.size(), size_t{5});
  EXPECT_EQ(results.front().stopReason, std::string("stopped"));
}

MRNN_TEST(streamed_completions_are_not_kept_however_many_are_asked) {
  // The defect: `mrnn sample --completions 100000000` grew by 90 MB a second, each streamed
  // completion's tail kept to the end.
  Fixture f;
  auto o = options("a", 3);
  o.completions = 2000;
  o.keepSymbols = false;
  size_t calls = 0;
  const auto results =
      f.sampler.generate(o, [&](size_t, const engine::GeneratedSymbol&) { ++calls; });
  EXPECT_EQ(calls, size_t{6000});
  EXPECT_EQ(results.size(), size_t{1});  // the last stands for all: its stop reason
  EXPECT_EQ(results.front().stopReason, std::string("length"));
  EXPECT(results.front().symbols.size() <= 1);
}

MRNN_TEST(bad_options_are_refused_by_name) {
  Fixture f;
  auto o = options("a", 10);
  o.temperature = 0.0;
  EXPECT_THROWS_WITH(std::invalid_argument, f.sampler.generate(o), "temperature");
  o = options("a", 0);
  EXPECT_THROWS_WITH(std::invalid_argument, f.sampler.generate(o), "length");
  o = options("a", 10);
  o.topP = 1.5;
  EXPECT_THROWS_WITH(std::invalid_argument, f.sampler.generate(o), "top-p");
  // The value refused is shown as given (-1e-9 read "not -0.000000").
  o.topP = -1e-9;
  EXPECT_THROWS_WITH(std::invalid_argument, f.sampler.generate(o), "not -1e-09");
  // Temperatures whose logits overflow, or that make every symbol equally likely, are out.
  for (const double temperature : {1e-308, 1e308}) {
    o = options("a", 10);
    o.temperature = temperature;
    EXPECT_THROWS_WITH(std::invalid_argument, f.sampler.generate(o),
                       "temperature must lie in [1e-06, 1000]");
  }
}

MRNN_TEST(the_memory_kept_for_a_beam_grows_with_its_width_not_its_square) {
  engine::SamplingOptions o;
  o.maxLength = 200;
  o.alternatives = 5;
  o.beamWidth = 100000;
  // 2 copies x (160 + 80 x 5) bytes x 100,000 beams x 200 symbols = 22.4 GB.
  EXPECT_NEAR(engine::keptSymbolsBytes(o), 2.24e10, 1e6);
  o.beamWidth = 0;
  o.completions = 3;
  EXPECT_NEAR(engine::keptSymbolsBytes(o), 560.0 * 3 * 200, 1e-6);
}

MRNN_TEST(sampling_job_reports_progress_and_can_be_cancelled) {
  Fixture f;
  std::vector<Completion> results;
  {
    engine::AnalysisJob job(engine::samplingWork(f.sampler, options("a", 40), results));
    job.start();
    job.wait();
    bool progressed = false, done = false;
    for (const auto& event : job.events().drain()) {
      if (const auto* p = std::get_if<engine::JobProgress>(&event)) progressed |= p->fraction > 0.5;
      done |= std::holds_alternative<engine::JobDone>(event);
    }
    EXPECT(progressed && done);
    EXPECT_EQ(results.front().symbols.size(), size_t{40});
  }
  engine::AnalysisJob job(engine::samplingWork(f.sampler, options("a", 100000000), results));
  job.start();
  EXPECT(job.events().pop(std::chrono::seconds(10)).has_value());
  job.cancel();
  job.wait();
  bool cancelled = false;
  for (const auto& event : job.events().drain()) {
    cancelled |= std::holds_alternative<engine::JobCancelled>(event);
  }
  EXPECT(cancelled);
  EXPECT(f.model.clamps().empty());
}
