// Text scores with answers known in advance: a fixed-distribution model scores each symbol
// -log2 p exactly; a hand-built bigram model matches an independent double computation, in
// any window length; the JSON and CSV writers.

#include <torch/torch.h>

#include <cmath>
#include <sstream>

#include "engine/scoring/scoring_output.h"
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
  EXPECT(csv.str().rfind("position,id,symbol,bits\n0,1,a,\n1,0,\" \",", 0) == 0);
  EXPECT_EQ(engine::jsonString("a\"b\\\n\x01"), std::string("\"a\\\"b\\\\\\n\\u0001\""));
}
