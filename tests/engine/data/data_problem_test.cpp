// Martens & Sutskever's long-range problems as generated data: each problem's definition
// (positions, targets, what is scored and judged), balanced classes, determinism by index,
// and the batcher that reads fresh sequences and resumes where it was.

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "engine/data/long_range_problem.h"
#include "engine/data/problem_batcher.h"
#include "test_harness.h"

using namespace mrnn;
using engine::LongRangeProblem;
using engine::ProblemSplit;
using engine::SyntheticTask;

namespace {

LongRangeProblem make(SyntheticTask task, int64_t length) {
  engine::ProblemConfig config;
  config.length = length;
  config.trainSequences = 64;
  config.validSequences = 16;
  config.testSequences = 16;
  config.seed = 7;
  return LongRangeProblem(task, config);
}

std::vector<int64_t> positionsOf(const std::vector<int64_t>& inputs, std::set<int64_t> symbols) {
  std::vector<int64_t> at;
  for (size_t t = 0; t < inputs.size(); ++t) {
    if (symbols.count(inputs[t])) at.push_back(static_cast<int64_t>(t));
  }
  return at;
}

int64_t scored(const engine::ProblemSequence& s) {
  return static_cast<int64_t>(std::count(s.mask.begin(), s.mask.end(), 1.0f));
}

}  // namespace

MRNN_TEST(temporal_order_puts_two_symbols_in_their_ranges_and_asks_their_order_at_E) {
  const auto problem = make(SyntheticTask::TemporalOrder2, 100);
  EXPECT_EQ(problem.windowLength(), int64_t{110});
  EXPECT_EQ(problem.vocabulary().size(), int64_t{12});
  std::map<int64_t, int> classes;
  for (int64_t i = 0; i < 40; ++i) {
    const auto s = problem.sequence(ProblemSplit::Train, i);
    const auto& v = problem.vocabulary();
    EXPECT_EQ(v.symbol(s.inputs[0]), std::string("B"));
    const auto relevant = positionsOf(s.inputs, {4, 5});  // X, Y
    EXPECT_EQ(relevant.size(), size_t{2});
    EXPECT(relevant[0] >= 1 && relevant[0] <= 10);
    EXPECT(relevant[1] >= 40 && relevant[1] <= 50);
    const auto ends = positionsOf(s.inputs, {6});  // E
    EXPECT_EQ(ends.size(), size_t{1});
    const int64_t end = ends[0];
    EXPECT(end >= 100 && end < 110);
    // The only scored and judged step is E's, whose target names the pair in order.
    EXPECT_EQ(scored(s), int64_t{1});
    EXPECT_EQ(s.mask[static_cast<size_t>(end)], 1.0f);
    EXPECT(s.judged == std::vector<int64_t>{end});
    const std::string pair = v.symbol(s.inputs[static_cast<size_t>(relevant[0])]) +
                             v.symbol(s.inputs[static_cast<size_t>(relevant[1])]);
    EXPECT_EQ(v.symbol(s.targets[static_cast<size_t>(end)]), pair);
    ++classes[s.targets[static_cast<size_t>(end)]];
    // Everything else is noise a-d.
    for (size_t t = 1; t < s.inputs.size(); ++t) {
      if (t == static_cast<size_t>(relevant[0]) || t == static_cast<size_t>(relevant[1]) ||
          t == static_cast<size_t>(end)) {
        continue;
      }
      EXPECT(s.inputs[t] >= 0 && s.inputs[t] < 4);
    }
  }
  // Balanced: every 4 consecutive indices hold each class once.
  EXPECT_EQ(classes.size(), size_t{4});
  for (const auto& [label, count] : classes) EXPECT_EQ(count, 10);
}

MRNN_TEST(temporal_order_3bit_has_three_ranges_and_eight_classes) {
  const auto problem = make(SyntheticTask::TemporalOrder3, 200);
  std::set<int64_t> classes;
  for (int64_t i = 0; i < 16; ++i) {
    const auto s = problem.sequence(ProblemSplit::Test, i);
    const auto relevant = positionsOf(s.inputs, {4, 5});
    EXPECT_EQ(relevant.size(), size_t{3});
    EXPECT(relevant[0] >= 2 && relevant[0] <= 20);
    EXPECT(relevant[1] >= 60 && relevant[1] <= 80);
    EXPECT(relevant[2] >= 100 && relevant[2] <= 120);
    const auto& v = problem.vocabulary();
    std::string triple;
    for (const int64_t at : relevant) triple += v.symbol(s.inputs[static_cast<size_t>(at)]);
    EXPECT_EQ(v.symbol(s.targets[static_cast<size_t>(s.judged.front())]), triple);
    classes.insert(s.targets[static_cast<size_t>(s.judged.front())]);
  }
  EXPECT_EQ(classes.size(), size_t{8});
}

MRNN_TEST(addition_marks_two_numbers_and_asks_their_sum_at_the_end) {
  const auto problem = make(SyntheticTask::Addition, 100);
  EXPECT(problem.realValued());
  for (int64_t i = 0; i < 20; ++i) {
    const auto s = problem.sequence(ProblemSplit::Valid, i);
    EXPECT_EQ(s.values.size(), s.inputs.size());
    const auto marked = positionsOf(s.inputs, {1});
    EXPECT_EQ(marked.size(), size_t{2});
    EXPECT(marked[0] >= 1 && marked[0] < 10);
    EXPECT(marked[1] >= 10 && marked[1] < 50);
    EXPECT_EQ(s.inputs[0], int64_t{2});  // the signal opens the sequence
    EXPECT_EQ(s.judged.size(), size_t{1});
    const auto end = static_cast<size_t>(s.judged[0]);
    EXPECT(end >= 100 && end < 110);
    EXPECT_EQ(s.inputs[end - 3], int64_t{2});  // and announces the answer
    EXPECT_NEAR(s.targetValues[end],
                s.values[static_cast<size_t>(marked[0])] + s.values[static_cast<size_t>(marked[1])],
                1e-6);
    EXPECT_EQ(scored(s), int64_t{1});
    for (const float v : s.values) EXPECT(v >= 0.0f && v < 1.0f);
  }
}

MRNN_TEST(multiplication_asks_the_product_of_additions_marked_numbers) {
  const auto problem = make(SyntheticTask::Multiplication, 100);
  EXPECT(problem.realValued() && problem.readsValues());
  EXPECT_EQ(problem.windowLength(), int64_t{110});
  double guessedRight = 0.0;
  const int64_t count = 400;
  for (int64_t i = 0; i < count; ++i) {
    const auto s = problem.sequence(ProblemSplit::Train, i);
    const auto marked = positionsOf(s.inputs, {1});
    EXPECT_EQ(marked.size(), size_t{2});
    EXPECT(marked[0] >= 1 && marked[0] < 10 && marked[1] >= 10 && marked[1] < 50);
    const auto end = static_cast<size_t>(s.judged.at(0));
    EXPECT(end >= 100 && end < 110);
    EXPECT_EQ(s.inputs[end - 3], int64_t{2});
    const float product =
        s.values[static_cast<size_t>(marked[0])] * s.values[static_cast<size_t>(marked[1])];
    EXPECT_NEAR(s.targetValues[end], product, 1e-7);
    guessedRight += std::fabs(s.targetValues[end] - 0.04) < 0.04 ? 1.0 : 0.0;
  }
  // The chance level the header states: a constant 0.04 is right for 0.08 (1 − ln 0.08) = 28%.
  EXPECT_NEAR(guessedRight / count, 0.08 * (1.0 - std::log(0.08)), 0.06);
}

MRNN_TEST(xor_marks_two_random_bits_and_asks_their_xor_as_a_symbol) {
  const auto problem = make(SyntheticTask::Xor, 100);
  EXPECT(problem.readsValues() && !problem.realValued());
  EXPECT_EQ(problem.windowLength(), int64_t{55});
  EXPECT_EQ(problem.vocabulary().size(), int64_t{5});
  std::map<std::pair<int, int>, int> pairs;
  int64_t ones = 0;
  int64_t bits = 0;
  for (int64_t i = 0; i < 200; ++i) {
    const auto s = problem.sequence(ProblemSplit::Test, i);
    EXPECT(s.targetValues.empty());
    const auto marked = positionsOf(s.inputs, {1});
    EXPECT_EQ(marked.size(), size_t{2});
    EXPECT(marked[0] >= 1 && marked[0] < 10);
    EXPECT(marked[1] >= 15 && marked[1] < 25);
    EXPECT_EQ(s.inputs[0], int64_t{2});
    EXPECT_EQ(s.judged.size(), size_t{1});
    const auto end = static_cast<size_t>(s.judged[0]);
    EXPECT(end >= 50 && end < 55);
    EXPECT_EQ(s.inputs[end - 3], int64_t{2});
    const int x = static_cast<int>(s.values[static_cast<size_t>(marked[0])]);
    const int y = static_cast<int>(s.values[static_cast<size_t>(marked[1])]);
    EXPECT_EQ(problem.vocabulary().symbol(s.targets[end]), std::to_string(x ^ y));
    EXPECT_EQ(scored(s), int64_t{1});
    ++pairs[{x, y}];
    for (const float v : s.values) {
      EXPECT(v == 0.0f || v == 1.0f);
      ones += v == 1.0f;
      ++bits;
    }
  }
  // Each pair of marked bits a quarter of the time (every 4 consecutive sequences), so a
  // guess is wrong half the time; the unmarked bits are fair coins.
  EXPECT_EQ(pairs.size(), size_t{4});
  for (const auto& [pair, seen] : pairs) EXPECT_EQ(seen, 50);
  EXPECT_NEAR(static_cast<double>(ones) / static_cast<double>(bits), 0.5, 0.02);
  EXPECT_THROWS_WITH(std::invalid_argument, make(SyntheticTask::Xor, 30), "from 40");
}

MRNN_TEST(random_permutation_predicts_every_next_symbol_and_the_first_at_the_end) {
  const auto problem = make(SyntheticTask::RandomPermutation, 50);
  EXPECT_EQ(problem.vocabulary().size(), int64_t{100});
  for (int64_t i = 0; i < 6; ++i) {
    const auto s = problem.sequence(ProblemSplit::Train, i);
    EXPECT_EQ(s.inputs.size(), size_t{50});
    EXPECT_EQ(s.inputs[0], i % 2);
    for (size_t t = 1; t < 50; ++t) EXPECT(s.inputs[t] >= 2 && s.inputs[t] < 100);
    for (size_t t = 0; t + 1 < 50; ++t) EXPECT_EQ(s.targets[t], s.inputs[t + 1]);
    EXPECT_EQ(s.targets[49], s.inputs[0]);
    EXPECT_EQ(scored(s), int64_t{50});
    EXPECT(s.judged == std::vector<int64_t>{49});
  }
}

MRNN_TEST(memorization_recalls_its_symbols_after_the_go_signal) {
  const auto five = make(SyntheticTask::Memorization5, 30);
  std::set<std::vector<int64_t>> patterns;
  for (int64_t i = 0; i < 32; ++i) {
    const auto s = five.sequence(ProblemSplit::Train, i);
    const std::vector<int64_t> data(s.inputs.begin(), s.inputs.begin() + 5);
    for (const int64_t d : data) EXPECT(d == 0 || d == 1);
    patterns.insert(data);
    EXPECT_EQ(s.inputs[30 - 5 - 1], int64_t{2});  // go
    for (size_t t = 5; t < 30; ++t) {
      if (t != 24) EXPECT_EQ(s.inputs[t], int64_t{3});  // blank
    }
    for (size_t t = 0; t < 25; ++t) EXPECT_EQ(s.targets[t], int64_t{3});
    EXPECT(std::vector<int64_t>(s.targets.begin() + 25, s.targets.end()) == data);
    EXPECT_EQ(scored(s), int64_t{30});
    EXPECT(s.judged == (std::vector<int64_t>{25, 26, 27, 28, 29}));
  }
  EXPECT_EQ(patterns.size(), size_t{32});  // every 32 consecutive sequences hold all patterns

  const auto twenty = make(SyntheticTask::Memorization20, 40);
  const auto s = twenty.sequence(ProblemSplit::Test, 3);
  for (size_t t = 0; t < 10; ++t) EXPECT(s.inputs[t] >= 0 && s.inputs[t] < 5);
  EXPECT_EQ(s.inputs[40 - 10 - 1], int64_t{5});
  EXPECT(std::vector<int64_t>(s.targets.begin() + 30, s.targets.end()) ==
         std::vector<int64_t>(s.inputs.begin(), s.inputs.begin() + 10));
}

MRNN_TEST(problem_sequences_depend_on_seed_split_and_index_only) {
  const auto a = make(SyntheticTask::TemporalOrder2, 60);
  const auto b = make(SyntheticTask::TemporalOrder2, 60);
  EXPECT(a.sequence(ProblemSplit::Train, 5).inputs == b.sequence(ProblemSplit::Train, 5).inputs);
  EXPECT(a.sequence(ProblemSplit::Train, 5).inputs != a.sequence(ProblemSplit::Test, 5).inputs);
  EXPECT(a.sequence(ProblemSplit::Train, 5).inputs != a.sequence(ProblemSplit::Train, 9).inputs);
}

MRNN_TEST(a_length_too_short_for_the_problem_is_named) {
  EXPECT_THROWS_WITH(std::invalid_argument, make(SyntheticTask::Memorization20, 12),
                     "data.problem.length", "memorization_20bit", "21");
  EXPECT_THROWS_WITH(std::invalid_argument, make(SyntheticTask::Addition, 10), "20");
}

MRNN_TEST(the_problem_batcher_reads_fresh_sequences_and_resumes_where_it_was) {
  const auto problem = make(SyntheticTask::TemporalOrder2, 40);
  engine::ProblemBatcher batcher(problem, 16);  // 64 training sequences: 4 windows an epoch
  EXPECT_EQ(batcher.windowsPerEpoch(), int64_t{4});
  const auto first = batcher.next();
  EXPECT(first.freshState && first.epochStart);
  EXPECT_EQ(first.steps, problem.windowLength());
  EXPECT_EQ(first.batch, int64_t{16});
  // Column b of the first window is training sequence b, time-major.
  const auto s3 = problem.sequence(ProblemSplit::Train, 3);
  for (int64_t t = 0; t < first.steps; ++t) {
    EXPECT_EQ(first.inputs[static_cast<size_t>(t * 16 + 3)], s3.inputs[static_cast<size_t>(t)]);
    EXPECT_EQ(first.lossMask[static_cast<size_t>(t * 16 + 3)], s3.mask[static_cast<size_t>(t)]);
  }
  for (int k = 0; k < 3; ++k) batcher.next();
  EXPECT_EQ(batcher.epoch(), int64_t{0});
  EXPECT_NEAR(batcher.epochProgress(), 1.0, 1e-12);
  const std::string saved = batcher.saveState();
  const auto fifth = batcher.next();  // a new epoch, new sequences: 64 .. 79
  EXPECT_EQ(batcher.epoch(), int64_t{1});
  EXPECT(fifth.epochStart);
  const auto sequence64 = problem.sequence(ProblemSplit::Train, 64);
  EXPECT_EQ(fifth.inputs[static_cast<size_t>(1 * 16 + 0)], sequence64.inputs[1]);
  engine::ProblemBatcher resumed(problem, 16);
  resumed.restoreState(saved);
  EXPECT(resumed.next().inputs == fifth.inputs);
  engine::ProblemBatcher other(problem, 8);
  EXPECT_THROWS_WITH(std::invalid_argument, other.restoreState(saved), "batches of 16");
  EXPECT_THROWS_WITH(std::invalid_argument, other.restoreState("nonsense"), "cannot be read");
}
