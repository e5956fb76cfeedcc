// Surprisal recovery (Krause §4.2, Fig. 3): the pure computation on synthetic loss sequences
// with known surprising positions and known offset means, and one end-to-end run.

#include <torch/torch.h>

#include <cmath>
#include <numeric>
#include <sstream>

#include "engine/models/language_model.h"
#include "engine/scoring/scoring_output.h"
#include "engine/scoring/surprisal_recovery.h"
#include "engine/scoring/text_score.h"
#include "scoring_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

// 20 positions at loss 1, spikes of 9 at 3 and 13, then 5, 3, 2, 1.5 after each spike.
std::vector<double> spikes() {
  std::vector<double> row(20, 1.0);
  for (const size_t at : {3, 13}) {
    row[at] = 9.0;
    row[at + 1] = 5.0;
    row[at + 2] = 3.0;
    row[at + 3] = 2.0;
    row[at + 4] = 1.5;
  }
  return row;
}

}  // namespace

MRNN_TEST(recovery_finds_the_spikes_and_the_means_after_them) {
  const auto a = spikes();
  std::vector<double> b = a;
  for (auto& loss : b) loss *= 2.0;  // a second model, twice as surprised everywhere
  engine::RecoveryOptions options;   // top 10% of 20 = 2 positions, K = 4
  const auto table = engine::surprisalRecovery({a, b}, options);
  EXPECT_EQ(table.positions, int64_t{20});
  EXPECT_EQ(table.surprising, int64_t{2});
  EXPECT(table.surprisingPositions == (std::vector<int64_t>{3, 13}));
  EXPECT_NEAR(table.surprisingMean[0], 9.0, 1e-12);
  EXPECT_NEAR(table.surprisingMean[1], 18.0, 1e-12);
  const std::vector<double> after = {5.0, 3.0, 2.0, 1.5};
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(table.offsetMean[0][k], after[k], 1e-12);
    EXPECT_NEAR(table.offsetMean[1][k], 2 * after[k], 1e-12);
    EXPECT_EQ(table.offsetCounts[k], int64_t{2});
  }
  const double overall = std::accumulate(a.begin(), a.end(), 0.0) / 20.0;
  EXPECT_NEAR(table.overallMean[0], overall, 1e-12);
  EXPECT_NEAR(table.overallMean[1], 2 * overall, 1e-12);
}

MRNN_TEST(recovery_judges_surprise_by_the_models_average_and_stops_at_the_end) {
  // Model A is surprised at 2, model B at 8 (more): the average picks 8; the text ends at
  // 9, so only +1 exists after it.
  std::vector<double> a(10, 1.0), b(10, 1.0);
  a[2] = 5.0;
  b[8] = 7.0;
  b[9] = 3.0;
  engine::RecoveryOptions options;
  options.topFraction = 0.1;
  options.offsets = 3;
  const auto table = engine::surprisalRecovery({a, b}, options);
  EXPECT(table.surprisingPositions == (std::vector<int64_t>{8}));
  EXPECT(table.offsetCounts == (std::vector<int64_t>{1, 0, 0}));
  EXPECT_NEAR(table.offsetMean[1][0], 3.0, 1e-12);
  EXPECT_NEAR(table.offsetMean[0][1], 0.0, 1e-12);  // no member: reported as 0, count 0
  // A larger fraction: 30% of 10 = 3 positions: 8, 2 and 9 (average 2.0, the highest left).
  options.topFraction = 0.3;
  EXPECT(engine::surprisalRecovery({a, b}, options).surprisingPositions ==
         (std::vector<int64_t>{2, 8, 9}));
}

MRNN_TEST(recovery_rejects_bad_input) {
  EXPECT_THROWS_WITH(std::invalid_argument, engine::surprisalRecovery({{1.0, 2.0}, {1.0}}),
                     "different numbers");
  engine::RecoveryOptions zero;
  zero.topFraction = 0.0;
  EXPECT_THROWS_WITH(std::invalid_argument, engine::surprisalRecovery({{1.0}}, zero), "(0, 1]");
  EXPECT_THROWS_WITH(std::invalid_argument,
                     engine::surprisalRecovery(std::vector<std::vector<double>>{}), "one model");
}

MRNN_TEST(recovery_end_to_end_finds_the_broken_pattern) {
  const auto vocabulary =
      engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {" ", "a", "b", "c", "d"});
  const std::vector<std::pair<std::string, std::string>> cycle = {
      {"a", "b"}, {"b", "c"}, {"c", "a"}, {"d", "b"}};
  auto first = bigramModel(vocabulary, cycle, 3.0);
  auto second = bigramModel(vocabulary, cycle, 5.0);
  // "abcabcabcadcabcabcabc": the 'd' after "a" (symbol 10, loss index 9) is the one surprise.
  const auto ids = vocabulary.encode("abcabcabcadcabcabcabc");
  engine::RecoveryOptions options;
  options.topFraction = 0.05;  // 20 losses -> 1 position
  options.offsets = 2;
  const auto table = engine::surprisalRecovery({first.get(), second.get()},
                                               {&vocabulary, &vocabulary}, ids, options);
  EXPECT(table.surprisingPositions == (std::vector<int64_t>{9}));
  const double unexpected = -bigramLogProb(vocabulary, cycle, 3.0, 1, 4);  // a -> d
  EXPECT_NEAR(table.surprisingMean[0], unexpected, 1e-5);
  // +1: d -> c, also off the cycle; +2: c -> a, back on it.
  EXPECT_NEAR(table.offsetMean[0][0], -bigramLogProb(vocabulary, cycle, 3.0, 4, 3), 1e-5);
  EXPECT_NEAR(table.offsetMean[1][1], -bigramLogProb(vocabulary, cycle, 5.0, 3, 1), 1e-5);
  const auto losses = engine::symbolLosses(*first, ids);
  EXPECT_NEAR(table.overallMean[0],
              std::accumulate(losses.begin(), losses.end(), 0.0) / losses.size(), 1e-9);

  std::ostringstream csv;
  engine::writeRecoveryCsv(csv, table, {"small", "large"});
  EXPECT(csv.str().rfind("model,offset,mean_nats,count\nsmall,0,", 0) == 0);
  EXPECT(csv.str().find("large,all,") != std::string::npos);
}

MRNN_TEST(recovery_refuses_models_with_different_vocabularies) {
  const auto abc = engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {"a", "b", "c"});
  const auto abd = engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {"a", "b", "d"});
  auto first = fixedDistributionModel(abc, {0.0f, 0.0f, 0.0f});
  auto second = fixedDistributionModel(abd, {0.0f, 0.0f, 0.0f});
  EXPECT_THROWS_WITH(
      std::invalid_argument,
      engine::surprisalRecovery({first.get(), second.get()}, {&abc, &abd}, abc.encode("abcabc")),
      "model 2", "vocabulary");
}
