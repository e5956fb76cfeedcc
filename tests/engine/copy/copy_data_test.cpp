// The reverse copy task's data (Melis et al. 2019 §4.3) with answers known in advance: every
// example is its input, the marker, the input reversed and <eos>; the generator follows its
// seed and keeps its streams apart; tokens are uniform; the target mask keeps exactly the
// reversed half, and the batcher carries it across windows and through a saved state.

#include <algorithm>
#include <fstream>
#include <set>

#include "data_fixtures.h"
#include "engine/data/corpus.h"
#include "engine/data/reverse_copy_task.h"
#include "engine/data/stream_batcher.h"
#include "test_harness.h"

using namespace mrnn;
using engine::CopyStream;
using engine::CopyTaskConfig;
using engine::ReverseCopyTask;

namespace {

CopyTaskConfig copyConfig(int64_t vocabulary, int64_t length, uint64_t seed = 1) {
  CopyTaskConfig config;
  config.vocabulary = vocabulary;
  config.length = length;
  config.trainExamples = 50;
  config.validExamples = 10;
  config.testExamples = 10;
  config.seed = seed;
  return config;
}

std::vector<int64_t> all(const engine::TokenStream& tokens) {
  std::vector<int64_t> ids(static_cast<size_t>(tokens.size()));
  if (!ids.empty()) tokens.copy(0, tokens.size(), ids.data());
  return ids;
}

// Whether the token at `index` of a reverse copy stream is a reversed token: an example is
// L inputs, the marker, L reversed tokens and <eos>.
bool reversedAt(int64_t index, int64_t length) {
  const int64_t offset = index % (2 * length + 2);
  return offset > length && offset <= 2 * length;
}

engine::BatcherOptions batching(int64_t batch, int64_t bptt) {
  engine::BatcherOptions options;
  options.batch = batch;
  options.bptt = bptt;
  return options;
}

int64_t countLines(const std::string& path) {
  std::ifstream in(path);
  int64_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

}  // namespace

MRNN_TEST(copy_examples_are_input_marker_reversal_and_eos) {
  const ReverseCopyTask task(copyConfig(7, 5));
  const int64_t count = 200;
  const auto split = task.split(CopyStream::Train, count);
  const auto ids = all(split.tokens);
  const auto inputs = task.drawInputs(CopyStream::Train, count);
  EXPECT_EQ(task.exampleSize(), int64_t{12});
  EXPECT_EQ(static_cast<int64_t>(ids.size()), count * 12);
  EXPECT_EQ(split.words, int64_t{0});
  for (int64_t e = 0; e < count; ++e) {
    const int64_t* x = ids.data() + e * 12;
    for (int64_t i = 0; i < 5; ++i) {
      EXPECT(x[i] >= 0 && x[i] < 7);
      EXPECT_EQ(x[i], inputs[static_cast<size_t>(e * 5 + i)]);
      EXPECT_EQ(x[6 + i], x[4 - i]);  // the second half is the first reversed
    }
    EXPECT_EQ(x[5], task.markerId());
    EXPECT_EQ(x[11], task.eosId());
  }
  EXPECT_EQ(task.markerId(), int64_t{7});
  EXPECT_EQ(task.eosId(), int64_t{8});
}

MRNN_TEST(copy_vocabulary_is_fixed_by_the_config) {
  const ReverseCopyTask task(copyConfig(1000, 3));
  const auto& v = task.vocabulary();
  EXPECT(v.level() == engine::InputLevel::Word);
  EXPECT_EQ(v.size(), int64_t{1002});
  EXPECT_EQ(v.symbol(0), std::string("t0"));
  EXPECT_EQ(v.symbol(999), std::string("t999"));
  EXPECT_EQ(v.symbol(1000), std::string("<go>"));
  EXPECT_EQ(v.eosId(), int64_t{1001});
  EXPECT_EQ(v.unkId(), int64_t{-1});  // nothing outside the task is readable
  EXPECT_EQ(ReverseCopyTask::tokensOf(v), int64_t{1000});
  EXPECT_EQ(ReverseCopyTask::tokensOf(engine::Vocabulary::bytes()), int64_t{-1});
  const auto words = engine::Vocabulary::fromSymbols(engine::InputLevel::Word,
                                                     {"t0", "t1", "<eos>", "<go>"});  // reordered
  EXPECT_EQ(ReverseCopyTask::tokensOf(words), int64_t{-1});
  EXPECT_THROWS_WITH(std::invalid_argument, (void)ReverseCopyTask(copyConfig(0, 3)), "at least 1");
  EXPECT_THROWS_WITH(std::invalid_argument, (void)ReverseCopyTask(copyConfig(5, 0)), "at least 1");
  EXPECT_THROWS_WITH(std::invalid_argument, (void)task.split(CopyStream::Train, 0), "at least 1");
}

MRNN_TEST(copy_generation_follows_the_seed_and_keeps_streams_apart) {
  const ReverseCopyTask a(copyConfig(50, 8, 3));
  const ReverseCopyTask b(copyConfig(50, 8, 3));
  const ReverseCopyTask other(copyConfig(50, 8, 4));
  EXPECT(all(a.split(CopyStream::Train, 40).tokens) == all(b.split(CopyStream::Train, 40).tokens));
  EXPECT(a.drawInputs(CopyStream::Train, 40) != other.drawInputs(CopyStream::Train, 40));
  // The four streams of one seed differ pairwise.
  const CopyStream streams[] = {CopyStream::Train, CopyStream::Valid, CopyStream::Test,
                                CopyStream::Fresh};
  for (const auto s : streams) {
    for (const auto t : streams) {
      if (s != t) EXPECT(a.drawInputs(s, 40) != a.drawInputs(t, 40));
    }
  }
  // A stream's first examples do not depend on how many are asked for.
  const auto many = a.drawInputs(CopyStream::Valid, 100);
  const auto few = a.drawInputs(CopyStream::Valid, 10);
  EXPECT(std::equal(few.begin(), few.end(), many.begin()));
}

MRNN_TEST(copy_tokens_are_uniform) {
  // 100,000 tokens over 10 symbols: a chi-square statistic with 9 degrees of freedom, whose
  // 99.9% quantile is 27.9 (the data are fixed by the seed, so this cannot flake).
  const ReverseCopyTask task(copyConfig(10, 50));
  const auto inputs = task.drawInputs(CopyStream::Train, 2000);
  std::vector<double> counts(10, 0.0);
  for (const int64_t id : inputs) counts[static_cast<size_t>(id)] += 1.0;
  double chi2 = 0.0;
  for (const double c : counts) chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
  EXPECT_MSG(chi2 < 27.9, "chi-square " << chi2);
  // And not suspiciously even either (the 0.1% quantile is 1.15).
  EXPECT_MSG(chi2 > 1.15, "chi-square " << chi2);
  // Successive tokens are independent: the same token follows itself 1/V of the time.
  int64_t repeats = 0;
  for (size_t i = 1; i < inputs.size(); ++i) repeats += inputs[i] == inputs[i - 1] ? 1 : 0;
  EXPECT_NEAR(static_cast<double>(repeats) / static_cast<double>(inputs.size() - 1), 0.1, 0.005);
}

MRNN_TEST(copy_mask_marks_exactly_the_reversed_tokens) {
  const ReverseCopyTask task(copyConfig(9, 4));
  const auto split = task.split(CopyStream::Test, 30);
  const auto mask = all(split.targetMask);
  EXPECT_EQ(split.targetMask.size(), split.tokens.size());
  int64_t ones = 0;
  for (int64_t i = 0; i < static_cast<int64_t>(mask.size()); ++i) {
    EXPECT_EQ(mask[static_cast<size_t>(i)], reversedAt(i, 4) ? int64_t{1} : int64_t{0});
    ones += mask[static_cast<size_t>(i)];
  }
  EXPECT_EQ(ones, int64_t{30 * 4});
}

MRNN_TEST(copy_corpus_comes_from_the_data_config) {
  engine::DataConfig config;
  config.synthetic = engine::SyntheticTask::ReverseCopy;
  config.copy = copyConfig(4, 3);
  const auto corpus = engine::loadCorpus(config, engine::InputLevel::Word, "/nonexistent");
  const ReverseCopyTask task(config.copy);
  EXPECT_EQ(corpus.vocabulary.fingerprint(), task.vocabulary().fingerprint());
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{50 * 8});
  EXPECT_EQ(corpus.valid.tokens.size(), int64_t{10 * 8});
  EXPECT_EQ(corpus.test.tokens.size(), int64_t{10 * 8});
  EXPECT(all(corpus.train.tokens) == all(task.split(CopyStream::Train, 50).tokens));
  EXPECT(all(corpus.valid.tokens) == all(task.split(CopyStream::Valid, 10).tokens));
  EXPECT(all(corpus.valid.tokens) != all(corpus.test.tokens));
  for (const auto* split : {&corpus.train, &corpus.valid, &corpus.test})
    EXPECT_EQ(split->targetMask.size(), split->tokens.size());

  EXPECT_THROWS_WITH(engine::DataError,
                     engine::loadCorpus(config, engine::InputLevel::Char, "/nonexistent"),
                     "word level", "'char'");
  auto mixed = config;
  mixed.train = "corpus.txt";
  EXPECT_THROWS_WITH(engine::DataError,
                     engine::loadCorpus(mixed, engine::InputLevel::Word, "/nonexistent"),
                     "cannot also read 'corpus.txt'");
  auto empty = config;
  empty.copy.validExamples = 0;
  EXPECT_THROWS_WITH(engine::DataError,
                     engine::loadCorpus(empty, engine::InputLevel::Word, "/nonexistent"),
                     "at least one example", "valid 0");
}

MRNN_TEST(corpus_files_carry_no_mask_and_batch_as_before) {
  test::DataScratch scratch("copy-nomask");
  engine::DataConfig config;
  config.train = scratch.write("train.txt", "abcabcabcabcabcabcabcabc\n");
  config.validFraction = 0.0;
  config.testFraction = 0.0;
  const auto corpus = engine::loadCorpus(config, engine::InputLevel::Char, "");
  EXPECT_EQ(corpus.train.targetMask.size(), int64_t{0});
  engine::StreamBatcher batcher(corpus.train.tokens, batching(2, 4), corpus.train.targetMask);
  EXPECT(batcher.next().lossMask.empty());
}

MRNN_TEST(copy_text_reads_back_as_the_same_tokens) {
  test::DataScratch scratch("copy-text");
  const ReverseCopyTask task(copyConfig(12, 3));
  const std::string text = task.text(CopyStream::Valid, 20);
  EXPECT_EQ(text.substr(text.find('<') - 1, 6), std::string(" <go> "));
  const auto path = scratch.write("valid.txt", text);
  const auto read = engine::loadSplit(path, engine::CorpusFormat::Tokens, task.vocabulary());
  EXPECT(all(read.tokens) == all(task.split(CopyStream::Valid, 20).tokens));

  const auto written =
      engine::writeReverseCopyFiles(copyConfig(12, 3), (scratch.folder() + "/out/nested"));
  EXPECT_EQ(written.size(), size_t{4});
  EXPECT_EQ(countLines(written[0]), int64_t{50});  // train
  EXPECT_EQ(countLines(written[1]), int64_t{10});  // valid
  EXPECT_EQ(countLines(written[2]), int64_t{10});  // test
  EXPECT_EQ(countLines(written[3]), int64_t{14});  // vocab: 12 tokens, <go>, <eos>
  std::ifstream valid(written[1]);
  const std::string contents((std::istreambuf_iterator<char>(valid)), {});
  EXPECT_EQ(contents, task.text(CopyStream::Valid, 10));  // the first 10 of the 20 above
  EXPECT_EQ(text.compare(0, contents.size(), contents), 0);
}

MRNN_TEST(batcher_carries_the_target_mask_across_windows) {
  const int64_t length = 3;
  const ReverseCopyTask task(copyConfig(5, length));
  const auto split = task.split(CopyStream::Train, 41);  // 328 tokens: 3 streams of 109
  engine::StreamBatcher batcher(split.tokens, batching(3, 7), split.targetMask);
  const int64_t streamLength = batcher.stepsPerStream();
  EXPECT_EQ(streamLength, int64_t{109});
  int64_t counted = 0;
  int64_t windows = 0;
  while (true) {
    const int64_t position = batcher.position();
    const auto window = batcher.next();
    if (window.epochStart && windows > 0) break;
    ++windows;
    EXPECT_EQ(window.lossMask.size(), window.targets.size());
    for (int64_t t = 0; t < window.steps; ++t) {
      for (int64_t b = 0; b < 3; ++b) {
        // The target of stream b at step t is token b * 109 + position + t + 1.
        const int64_t target = b * streamLength + position + t + 1;
        const float m = window.lossMask[static_cast<size_t>(t * 3 + b)];
        EXPECT_EQ(m, reversedAt(target, length) ? 1.0f : 0.0f);
        counted += m > 0.5f ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(windows, int64_t{16});  // 109 = 15 x 7 + 4
  int64_t expected = 0;
  for (int64_t i = 1; i <= 3 * streamLength; ++i) expected += reversedAt(i, length) ? 1 : 0;
  EXPECT_EQ(counted, expected);
}

MRNN_TEST(batcher_target_mask_multiplies_predict_last) {
  const ReverseCopyTask task(copyConfig(5, 3));
  const auto split = task.split(CopyStream::Train, 20);
  auto options = batching(2, 6);
  options.predictLast = 2;
  engine::StreamBatcher batcher(split.tokens, options, split.targetMask);
  const int64_t streamLength = batcher.stepsPerStream();
  for (int w = 0; w < 5; ++w) {
    const int64_t position = batcher.position();
    const auto window = batcher.next();
    for (int64_t t = 0; t < window.steps; ++t) {
      for (int64_t b = 0; b < 2; ++b) {
        const bool last = t >= window.steps - 2;
        const bool reversed = reversedAt(b * streamLength + position + t + 1, 3);
        EXPECT_EQ(window.lossMask[static_cast<size_t>(t * 2 + b)], last && reversed ? 1.0f : 0.0f);
      }
    }
  }
}

MRNN_TEST(batcher_target_mask_survives_a_saved_state) {
  const ReverseCopyTask task(copyConfig(6, 4));
  const auto split = task.split(CopyStream::Train, 300);
  auto options = batching(4, 13);
  options.randomLength = true;
  options.seed = 5;
  engine::StreamBatcher original(split.tokens, options, split.targetMask);
  for (int i = 0; i < 70; ++i) original.next();  // past an epoch boundary (749 steps)
  EXPECT(original.epoch() >= 1);
  const std::string state = original.saveState();
  engine::StreamBatcher resumed(split.tokens, options, split.targetMask);
  resumed.restoreState(state);
  for (int i = 0; i < 40; ++i) {
    const auto a = original.next();
    const auto b = resumed.next();
    EXPECT(a.inputs == b.inputs && a.targets == b.targets);
    EXPECT(!a.lossMask.empty());
    EXPECT(a.lossMask == b.lossMask);
  }
  // A batcher that forgot the mask would score every target: the state does not carry it.
  engine::StreamBatcher unmasked(split.tokens, options);
  unmasked.restoreState(original.saveState());
  EXPECT(unmasked.next().lossMask.empty());
}

MRNN_TEST(batcher_refuses_a_mask_of_another_length) {
  const ReverseCopyTask task(copyConfig(6, 4));
  const auto split = task.split(CopyStream::Train, 10);
  EXPECT_THROWS_WITH(
      std::invalid_argument,
      engine::StreamBatcher(split.tokens, batching(2, 5), split.targetMask.slice(0, 50)),
      "50 entries for 100 symbols");
}
