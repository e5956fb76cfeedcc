// Text scores with answers known in advance: a fixed-distribution model scores each symbol
// -log2 p exactly; a hand-built bigram model matches an independent double computation, in
// any window length; the JSON and CSV writers.

#include <torch/torch.h>

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "engine/models/language_model.h"
#include "engine/scoring/scoring_output.h"
#include "engine/scoring/surprisal_difference.h"
#include "engine/scoring/text_score.h"
#include "engine/store/text_format.h"
#include "scoring_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

engine::Vocabulary letters() {
  return engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {" ", "a", "b", "c", "d"});
}

const std::vector<std::pair<std::string, std::string>> kCycle = {
    {"a", "b"}, {"b", "c"}, {"c", "a"}, {" ", "a"}};

}  // namespace

MRNN_TEST(uniform_model_scores_log2_v_from_the_second_symbol) {
  const auto vocabulary = letters();
  auto model = fixedDistributionModel(vocabulary, std::vector<float>(5, 0.0f));
  const auto score = engine::scoreText(*model, vocabulary, "abcab");
  EXPECT_EQ(score.symbols.size(), size_t{5});
  EXPECT(!score.symbols[0].predicted);
  EXPECT_EQ(score.predictedSymbols, int64_t{4});
  for (size_t i = 1; i < 5; ++i) EXPECT_NEAR(score.symbols[i].bits, std::log2(5.0), 1e-5);
  EXPECT_NEAR(score.totalBits, 4 * std::log2(5.0), 1e-4);
  EXPECT_NEAR(score.bitsPerSymbol, std::log2(5.0), 1e-5);
  EXPECT_EQ(score.symbols[2].text, std::string("c"));
  EXPECT_EQ(score.symbols[2].id, int64_t{3});

  // With a context every symbol of the text is predicted.
  const auto continued = engine::scoreText(*model, vocabulary, "abcab", "dd");
  EXPECT_EQ(continued.predictedSymbols, int64_t{5});
  EXPECT(continued.symbols[0].predicted);
  EXPECT_NEAR(continued.totalBits, 5 * std::log2(5.0), 1e-4);
}

MRNN_TEST(fixed_distribution_scores_minus_log2_p_of_each_symbol) {
  const auto vocabulary = letters();
  const std::vector<float> bias = {0.0f, 1.0f, 2.0f, -1.0f, 0.5f};
  auto model = fixedDistributionModel(vocabulary, bias);
  double normaliser = 0.0;
  for (const float b : bias) normaliser += std::exp(static_cast<double>(b));
  const auto score =
      engine::scoreText(*model, vocabulary, "dcba b", "a");  // starts with d: bias 0.5
  double expected = 0.0;
  for (const char c : std::string("dcba b")) {
    const auto id = vocabulary.find(std::string(1, c));
    const double bits = -(bias[static_cast<size_t>(id)] - std::log(normaliser)) / std::log(2.0);
    expected += bits;
  }
  EXPECT_NEAR(score.totalBits, expected, 1e-4);
  EXPECT_NEAR(score.symbols[0].bits, -(0.5 - std::log(normaliser)) / std::log(2.0), 1e-5);
}

MRNN_TEST(bigram_model_matches_an_independent_computation_in_any_window) {
  const auto vocabulary = letters();
  auto model = bigramModel(vocabulary, kCycle, 3.0);
  const std::string text = "abcabd ab cabcaab";
  const auto ids = vocabulary.encode(text);
  double expected = 0.0;
  for (size_t i = 1; i < ids.size(); ++i) {
    expected -= bigramLogProb(vocabulary, kCycle, 3.0, ids[i - 1], ids[i]) / std::log(2.0);
  }
  for (const int64_t window : {1, 3, 256}) {
    const auto score = engine::scoreText(*model, vocabulary, text, "", nullptr, window);
    EXPECT_NEAR(score.totalBits, expected, 1e-4);
  }
  const auto losses = engine::symbolLosses(*model, ids);
  EXPECT_EQ(losses.size(), ids.size() - 1);
  EXPECT_NEAR(losses[4], -bigramLogProb(vocabulary, kCycle, 3.0, ids[4], ids[5]), 1e-5);
}

MRNN_TEST(text_score_writers_escape_and_mark_the_unpredicted_symbol) {
  const auto vocabulary = letters();
  auto model = fixedDistributionModel(vocabulary, std::vector<float>(5, 0.0f));
  const auto score = engine::scoreText(*model, vocabulary, "a b");
  std::ostringstream json;
  engine::writeTextScoreJson(json, score);
  EXPECT(json.str().find("\"bits\": null") != std::string::npos);
  EXPECT(json.str().find("\"text\": \" \"") != std::string::npos);
  std::ostringstream csv;
  engine::writeTextScoreCsv(csv, score);
  EXPECT(csv.str().rfind("position,id,symbol,bits,probability,rank\n0,1,a,,,\n1,0,\" \",", 0) == 0);
  // The uniform model: p = 1/5 and, with every symbol tied, rank 1.
  std::istringstream lines(csv.str());
  std::string line;
  for (int i = 0; i < 3; ++i) std::getline(lines, line);
  // position,id,symbol,bits,probability,rank: the model computes in float, hence the tolerance.
  const size_t rankComma = line.rfind(',');
  const size_t probabilityComma = line.rfind(',', rankComma - 1);
  EXPECT_EQ(line.substr(rankComma + 1), std::string("1"));
  EXPECT_NEAR(std::stod(line.substr(probabilityComma + 1, rankComma - probabilityComma - 1)), 0.2,
              1e-6);
  EXPECT(json.str().find("\"probability\": null, \"rank\": null") != std::string::npos);
  EXPECT_EQ(engine::jsonString("a\"b\\\n\x01"), std::string("\"a\\\"b\\\\\\n\\u0001\""));
}

MRNN_TEST(fixed_distribution_gives_probability_rank_and_sorted_alternatives) {
  const auto vocabulary = letters();  // ids: ' ' a b c d
  const std::vector<float> bias = {0.0f, 1.0f, 2.0f, -1.0f, 0.5f};
  auto model = fixedDistributionModel(vocabulary, bias);
  double normaliser = 0.0;
  for (const float b : bias) normaliser += std::exp(static_cast<double>(b));
  const auto p = [&](int64_t id) {
    return std::exp(static_cast<double>(bias[static_cast<size_t>(id)])) / normaliser;
  };
  // Order of probability: b (2), a (1), d (0.5), ' ' (0), c (-1).
  const auto score = engine::scoreText(*model, vocabulary, "cbd a", "", nullptr, 256, 3);
  EXPECT(!score.symbols[0].predicted);
  EXPECT_EQ(score.symbols[0].rank, int64_t{0});
  EXPECT_NEAR(score.symbols[0].probability, 0.0, 0.0);
  EXPECT(score.symbols[0].alternatives.empty());
  const std::vector<int64_t> expectedRank = {0, 1, 3, 4, 2};  // c b d ' ' a
  for (size_t i = 1; i < score.symbols.size(); ++i) {
    const auto& s = score.symbols[i];
    EXPECT_EQ(s.rank, expectedRank[i]);
    EXPECT_NEAR(s.probability, p(s.id), 1e-6);
    EXPECT_NEAR(s.probability, std::exp(-s.bits * std::log(2.0)), 1e-12);
    EXPECT_EQ(s.alternatives.size(), size_t{3});
    EXPECT_EQ(s.alternatives[0].id, int64_t{2});
    EXPECT_EQ(s.alternatives[0].text, std::string("b"));
    EXPECT_EQ(s.alternatives[1].id, int64_t{1});
    EXPECT_EQ(s.alternatives[2].id, int64_t{4});
    for (const auto& alternative : s.alternatives) {
      EXPECT_NEAR(alternative.probability, p(alternative.id), 1e-6);
    }
  }
  // Without alternatives asked for, rank and probability are still there.
  const auto plain = engine::scoreText(*model, vocabulary, "cbd a");
  EXPECT(plain.symbols[1].alternatives.empty());
  EXPECT_EQ(plain.symbols[1].rank, int64_t{1});
  EXPECT_NEAR(plain.symbols[1].probability, p(2), 1e-6);
  // More alternatives than symbols: the whole vocabulary.
  const auto all = engine::scoreText(*model, vocabulary, "ab", "", nullptr, 256, 99);
  EXPECT_EQ(all.symbols[1].alternatives.size(), size_t{5});
}

MRNN_TEST(bigram_alternatives_cover_the_vocabulary_and_agree_with_the_rank) {
  const auto vocabulary = letters();
  auto model = bigramModel(vocabulary, kCycle, 3.0);
  const std::string text = "abcabd ab cab";
  const auto score =
      engine::scoreText(*model, vocabulary, text, "c", nullptr, 4, vocabulary.size());
  EXPECT_EQ(score.predictedSymbols, static_cast<int64_t>(text.size()));
  for (const auto& s : score.symbols) {
    EXPECT_EQ(s.alternatives.size(), size_t{5});
    double sum = 0.0;
    int64_t higher = 0;
    bool found = false;
    for (size_t a = 0; a < s.alternatives.size(); ++a) {
      sum += s.alternatives[a].probability;
      if (a > 0) EXPECT(s.alternatives[a].probability <= s.alternatives[a - 1].probability);
      if (s.alternatives[a].probability > s.probability * (1 + 1e-9)) ++higher;
      if (s.alternatives[a].id == s.id) {
        found = true;
        EXPECT_NEAR(s.alternatives[a].probability, s.probability, 1e-12);
      }
    }
    EXPECT(found);
    EXPECT_NEAR(sum, 1.0, 1e-6);  // a float model's softmax
    EXPECT_EQ(s.rank, higher + 1);
    EXPECT_NEAR(s.probability, std::exp(-s.bits * std::log(2.0)), 1e-12);
  }
  // 'a' after 'c' is the cycle's transition: the model's top choice.
  EXPECT_EQ(score.symbols[0].rank, int64_t{1});
  EXPECT_NEAR(std::log(score.symbols[0].probability),
              bigramLogProb(vocabulary, kCycle, 3.0, vocabulary.find("c"), vocabulary.find("a")),
              1e-5);
  // 'd' after 'b' is off the cycle: four symbols tie below 'c', so the rank is 2.
  EXPECT_EQ(score.symbols[5].text, std::string("d"));
  EXPECT_EQ(score.symbols[5].rank, int64_t{2});
}

MRNN_TEST(score_symbols_equals_score_text_and_checks_ids) {
  const auto vocabulary = letters();
  auto model = bigramModel(vocabulary, kCycle, 3.0);
  const std::string text = "abcab dab";
  const auto fromText = engine::scoreText(*model, vocabulary, text, "", nullptr, 256, 2);
  const auto fromIds =
      engine::scoreSymbols(*model, vocabulary, vocabulary.encode(text), nullptr, 3, 2);
  EXPECT_EQ(fromIds.symbols.size(), fromText.symbols.size());
  EXPECT_NEAR(fromIds.totalBits, fromText.totalBits, 1e-9);
  for (size_t i = 0; i < fromIds.symbols.size(); ++i) {
    EXPECT_EQ(fromIds.symbols[i].rank, fromText.symbols[i].rank);
    EXPECT_EQ(fromIds.symbols[i].alternatives.size(), fromText.symbols[i].alternatives.size());
  }
  EXPECT_THROWS_WITH(std::invalid_argument, engine::scoreSymbols(*model, vocabulary, {1, 7}),
                     "symbol 2 has id 7", "outside the vocabulary");
  EXPECT_THROWS_WITH(std::invalid_argument,
                     engine::scoreText(*model, vocabulary, "ab", "", nullptr, 256, -1),
                     "alternatives");
  const auto single = engine::scoreSymbols(*model, vocabulary, {1});
  EXPECT_EQ(single.predictedSymbols, int64_t{0});
}

MRNN_TEST(surprisal_difference_is_a_minus_b_with_the_largest_first) {
  const auto vocabulary = letters();
  auto uniform = fixedDistributionModel(vocabulary, std::vector<float>(5, 0.0f));
  auto bigram = bigramModel(vocabulary, kCycle, 3.0);
  const auto ids = vocabulary.encode("abcab dab");
  const auto a = engine::scoreSymbols(*uniform, vocabulary, ids);
  const auto b = engine::scoreSymbols(*bigram, vocabulary, ids);
  const auto d = engine::surprisalDifference(a, b, 3);
  EXPECT_EQ(d.difference.size(), ids.size());
  EXPECT_NEAR(d.difference[0], 0.0, 0.0);  // nothing predicted the first symbol
  double sum = 0.0;
  for (size_t i = 1; i < ids.size(); ++i) {
    EXPECT_NEAR(d.difference[i], a.symbols[i].bits - b.symbols[i].bits, 1e-12);
    sum += d.difference[i];
  }
  EXPECT_NEAR(d.meanDifference, sum / static_cast<double>(ids.size() - 1), 1e-12);
  EXPECT_NEAR(d.meanDifference, a.bitsPerSymbol - b.bitsPerSymbol, 1e-9);
  EXPECT_EQ(d.largest.size(), size_t{3});
  for (size_t k = 1; k < d.largest.size(); ++k) {
    EXPECT(std::abs(d.largest[k - 1].difference()) >= std::abs(d.largest[k].difference()));
  }
  // No symbol left out differs more than the last one listed.
  for (size_t i = 1; i < ids.size(); ++i) {
    EXPECT(std::abs(d.difference[i]) <= std::abs(d.largest.front().difference()) + 1e-12);
  }
  const auto self = engine::surprisalDifference(a, a);
  EXPECT_NEAR(self.meanDifference, 0.0, 0.0);

  std::ostringstream csv;
  engine::writeSurprisalDifferenceCsv(csv, a, b);
  EXPECT(csv.str().rfind("position,id,symbol,bits_a,bits_b,difference\n0,", 0) == 0);
  EXPECT(csv.str().find("\n0,1,a,,,\n") != std::string::npos);

  const auto other = engine::scoreSymbols(*bigram, vocabulary, vocabulary.encode("abcab dac"));
  EXPECT_THROWS_WITH(std::invalid_argument, engine::surprisalDifference(a, other), "symbol 9",
                     "not made on the same text");
  const auto shorter = engine::scoreSymbols(*bigram, vocabulary, vocabulary.encode("abcab"));
  EXPECT_THROWS_WITH(std::invalid_argument, engine::surprisalDifference(a, shorter),
                     "9 and 5 symbols");
}
