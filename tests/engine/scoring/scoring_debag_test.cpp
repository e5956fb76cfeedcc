// Debagging (Sutskever §5.4) against a hand-built bigram model that prefers one chain of
// words: the true order ranks first, every distinct ordering is scored exhaustively up to 7
// words (n!), beam search above, and log-probabilities match an independent computation.

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <sstream>

#include "engine/models/language_model.h"
#include "engine/runtime/machine_resources.h"
#include "engine/scoring/debagging.h"
#include "engine/scoring/scoring_output.h"
#include "scoring_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

const std::vector<std::string> kWords = {"<unk>", "the",   "cat",   "sat", "on",     "a",
                                         "mat",   "today", "while", "it",  "rained", "."};

engine::Vocabulary words() {
  return engine::Vocabulary::fromSymbols(engine::InputLevel::Word, kWords);
}

// the -> cat -> sat -> on -> a -> mat -> today -> while -> it -> rained -> .
std::vector<std::pair<std::string, std::string>> chain() {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t i = 1; i + 1 < kWords.size(); ++i) pairs.push_back({kWords[i], kWords[i + 1]});
  return pairs;
}

int64_t factorial(int64_t n) {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

}  // namespace

MRNN_TEST(debag_ranks_the_preferred_chain_first_among_all_n_factorial) {
  const auto vocabulary = words();
  const auto transitions = chain();
  auto model = bigramModel(vocabulary, transitions, 4.0);
  const std::vector<std::string> bag = {"cat", "sat", "on", "a", "mat"};
  const auto result = engine::debag(*model, vocabulary, "the", bag, "today");
  EXPECT(result.exhaustive);
  EXPECT_EQ(result.scored, factorial(5));
  EXPECT_EQ(result.trueRank, int64_t{1});
  EXPECT(result.orderings.front().words == bag);
  // Six transitions, each the preferred one: the -> cat ... mat -> today.
  const double each = bigramLogProb(vocabulary, transitions, 4.0, 1, 2);
  EXPECT_NEAR(result.trueLogProb, 6 * each, 1e-4);
  EXPECT_NEAR(result.orderings.front().logProb, 6 * each, 1e-4);
  // Every score matches the independent computation, e.g. the reversed order's.
  int checked = 0;
  for (const auto& ordering : result.orderings) {
    if (ordering.words != std::vector<std::string>{"mat", "a", "on", "sat", "cat"}) continue;
    std::vector<std::string> sequence = {"the", "mat", "a", "on", "sat", "cat", "today"};
    double expected = 0.0;
    for (size_t i = 1; i < sequence.size(); ++i) {
      expected += bigramLogProb(vocabulary, transitions, 4.0, vocabulary.find(sequence[i - 1]),
                                vocabulary.find(sequence[i]));
    }
    EXPECT_NEAR(ordering.logProb, expected, 1e-4);
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

MRNN_TEST(debag_is_exhaustive_up_to_seven_words_and_counts_distinct_orderings) {
  const auto vocabulary = words();
  auto model = bigramModel(vocabulary, chain(), 4.0);
  const std::vector<std::string> seven = {"cat", "sat", "on", "a", "mat", "today", "while"};
  engine::DebagOptions options;
  options.batch = 700;  // several batches
  const auto result = engine::debag(*model, vocabulary, "the", seven, "", options);
  EXPECT(result.exhaustive);
  EXPECT_EQ(result.scored, int64_t{5040});
  EXPECT_EQ(result.trueRank, int64_t{1});
  // A repeated word: "a a mat" has 3 distinct orderings, not 6.
  const auto repeated = engine::debag(*model, vocabulary, "on", {"a", "a", "mat"}, "");
  EXPECT_EQ(repeated.scored, int64_t{3});
  EXPECT_EQ(repeated.trueRank, int64_t{1});
}

MRNN_TEST(debag_uses_beam_search_above_seven_words) {
  const auto vocabulary = words();
  const auto transitions = chain();
  auto model = bigramModel(vocabulary, transitions, 4.0);
  const std::vector<std::string> bag = {"cat", "sat", "on", "a", "mat", "today", "while", "it"};
  engine::DebagOptions options;
  options.beamWidth = 12;
  const auto result = engine::debag(*model, vocabulary, "the", bag, "rained", options);
  EXPECT(!result.exhaustive);
  EXPECT(result.scored <= 12);
  EXPECT_EQ(result.trueRank, int64_t{1});
  EXPECT(result.orderings.front().words == bag);
  // The beam's piecewise score equals the one-pass score of the same ordering.
  EXPECT_NEAR(result.orderings.front().logProb, result.trueLogProb, 1e-4);
  EXPECT_NEAR(result.trueLogProb, 9 * bigramLogProb(vocabulary, transitions, 4.0, 1, 2), 1e-3);
}

MRNN_TEST(debag_refuses_a_beam_wider_than_memory_at_once) {
  // The defect: `mrnn score debag --beam 100000000` over 17 words grew past 10 GB in 30 s.
  const auto vocabulary = words();
  auto model = bigramModel(vocabulary, chain(), 4.0);
  std::vector<std::string> bag;
  for (int i = 0; i < 4; ++i) bag.insert(bag.end(), kWords.begin() + 1, kWords.end());
  engine::DebagOptions options;
  options.beamWidth = int64_t{1} << 50;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROWS_WITH(engine::ResourceError,
                     engine::debag(*model, vocabulary, "the", bag, "", options),
                     "debagging 44 words with a beam of", "Ask for a narrower beam");
  EXPECT(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

MRNN_TEST(debag_joins_words_with_single_spaces_for_char_models) {
  const auto vocabulary =
      engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {" ", "a", "b", "c", "d", "x"});
  auto model = fixedDistributionModel(vocabulary, std::vector<float>(6, 0.0f));
  // Scored: " ab c d" after "x" (7 symbols), each ordering alike under a uniform model.
  const auto result = engine::debag(*model, vocabulary, "x", {"ab", "c"}, "d");
  EXPECT_EQ(result.scored, int64_t{2});
  for (const auto& ordering : result.orderings) {
    EXPECT_NEAR(ordering.logProb, -7 * std::log(6.0), 1e-4);
  }
  EXPECT_EQ(result.trueRank, int64_t{1});  // ties share the best rank
  // A left context already ending in a space gets none added: after "x ", "ab c" = 4 symbols.
  const auto spaced = engine::debag(*model, vocabulary, "x ", {"ab", "c"}, "");
  EXPECT_NEAR(spaced.trueLogProb, -4 * std::log(6.0), 1e-4);
}

MRNN_TEST(debag_rejects_bad_input_and_writes_csv) {
  const auto vocabulary = words();
  auto model = bigramModel(vocabulary, chain(), 4.0);
  EXPECT_THROWS_WITH(std::invalid_argument, engine::debag(*model, vocabulary, "", {"cat"}, ""),
                     "left context");
  EXPECT_THROWS_WITH(std::invalid_argument, engine::debag(*model, vocabulary, "the", {}, ""),
                     "bag");
  const auto result = engine::debag(*model, vocabulary, "the", {"sat", "cat"}, "");
  std::ostringstream csv;
  engine::writeDebagCsv(csv, result);
  EXPECT(csv.str().rfind("rank,ordering,log_prob,is_true\n1,cat sat,", 0) == 0);
  EXPECT(csv.str().find(",0\n") != std::string::npos);
  std::ostringstream json;
  engine::writeDebagJson(json, result, 1);
  EXPECT(json.str().find("\"true_rank\": 2") != std::string::npos);
  EXPECT(json.str().find("\"rank\": 2") == std::string::npos);
}
