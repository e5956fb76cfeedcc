// StreamBatcher: exact windows on a small stream, state carried across windows, epoch wrap,
// the predict-last mask, AWD-LSTM random lengths, and save/restore continuing exactly.

#include "engine/data/stream_batcher.h"
#include "test_harness.h"

using namespace mrnn;
using engine::BatcherOptions;
using engine::StreamBatcher;
using engine::TokenStream;
using engine::Window;

namespace {

// Ids 0..n-1: every id is its own position, so the windows can be checked by arithmetic.
TokenStream counting(int64_t n) {
  std::vector<int64_t> ids(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) ids[static_cast<size_t>(i)] = i;
  return TokenStream::fromIds(ids);
}

BatcherOptions options(int64_t batch, int64_t bptt) {
  BatcherOptions o;
  o.batch = batch;
  o.bptt = bptt;
  return o;
}

bool same(const Window& a, const Window& b) {
  return a.steps == b.steps && a.batch == b.batch && a.inputs == b.inputs &&
         a.targets == b.targets && a.lossMask == b.lossMask && a.epochStart == b.epochStart;
}

}  // namespace

MRNN_TEST(batcher_windows_are_contiguous_streams) {
  // 23 ids, 2 streams: L = (23 - 1) / 2 = 11 steps each; stream 1 starts at id 11; id 22 is
  // only ever a target.
  const TokenStream tokens = counting(23);
  StreamBatcher batcher(tokens, options(2, 4));
  EXPECT_EQ(batcher.stepsPerStream(), int64_t{11});
  const Window first = batcher.next();
  EXPECT_EQ(first.steps, int64_t{4});
  EXPECT_EQ(first.batch, int64_t{2});
  EXPECT(first.epochStart);
  EXPECT(first.lossMask.empty());
  // Time-major [T, B]: row t holds (stream 0, stream 1).
  EXPECT(first.inputs == (std::vector<int64_t>{0, 11, 1, 12, 2, 13, 3, 14}));
  EXPECT(first.targets == (std::vector<int64_t>{1, 12, 2, 13, 3, 14, 4, 15}));
  EXPECT_EQ(batcher.position(), int64_t{4});
  // The next window carries on where this one stopped.
  const Window second = batcher.next();
  EXPECT(!second.epochStart);
  EXPECT(second.inputs == (std::vector<int64_t>{4, 15, 5, 16, 6, 17, 7, 18}));
  // The last window of the epoch is shorter: 11 = 4 + 4 + 3.
  const Window third = batcher.next();
  EXPECT_EQ(third.steps, int64_t{3});
  EXPECT(third.inputs == (std::vector<int64_t>{8, 19, 9, 20, 10, 21}));
  EXPECT(third.targets == (std::vector<int64_t>{9, 20, 10, 21, 11, 22}));
  EXPECT_EQ(batcher.epoch(), int64_t{0});
  EXPECT_NEAR(batcher.epochProgress(), 1.0, 1e-12);
}

MRNN_TEST(batcher_wraps_to_the_next_epoch) {
  const TokenStream tokens = counting(23);
  StreamBatcher batcher(tokens, options(2, 4));
  const Window first = batcher.next();
  for (int i = 0; i < 2; ++i) batcher.next();
  EXPECT_EQ(batcher.epoch(), int64_t{0});
  const Window again = batcher.next();  // the epoch of the window just returned
  EXPECT_EQ(batcher.epoch(), int64_t{1});
  EXPECT(again.epochStart);
  EXPECT(same(again, first));
  EXPECT_NEAR(batcher.epochProgress(), 4.0 / 11.0, 1e-12);
}

MRNN_TEST(batcher_drops_the_remainder_and_refuses_short_streams) {
  // 11 ids, 3 streams: L = (11 - 1) / 3 = 3; id 10 is dropped.
  const TokenStream tokens = counting(11);
  StreamBatcher batcher(tokens, options(3, 100));
  const Window only = batcher.next();
  EXPECT_EQ(only.steps, int64_t{3});
  EXPECT(only.inputs == (std::vector<int64_t>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
  EXPECT(only.targets == (std::vector<int64_t>{1, 4, 7, 2, 5, 8, 3, 6, 9}));
  const TokenStream two = counting(2);
  EXPECT_THROWS_WITH(std::invalid_argument, (void)StreamBatcher(two, options(2, 4)), "too few");
  EXPECT_THROWS_WITH(std::invalid_argument, (void)StreamBatcher(tokens, options(0, 4)), "batch");
}

MRNN_TEST(batcher_predict_last_masks_all_but_the_last_k_steps) {
  const TokenStream tokens = counting(23);
  BatcherOptions o = options(2, 4);
  o.predictLast = 3;
  StreamBatcher batcher(tokens, o);
  const Window first = batcher.next();
  EXPECT(first.lossMask == (std::vector<float>{0, 0, 1, 1, 1, 1, 1, 1}));
  batcher.next();
  const Window shortLast = batcher.next();  // 3 steps: all of them count
  EXPECT(shortLast.lossMask == (std::vector<float>(6, 1.0f)));
}

MRNN_TEST(batcher_random_lengths_stay_in_bounds_and_follow_the_seed) {
  const TokenStream tokens = counting(200001);
  BatcherOptions o = options(1, 70);
  o.randomLength = true;
  o.seed = 42;
  StreamBatcher a(tokens, o);
  StreamBatcher b(tokens, o);
  o.seed = 43;
  StreamBatcher c(tokens, o);
  std::vector<int64_t> lengths;
  bool differs = false;
  int64_t shortOnes = 0;
  for (int i = 0; i < 1000; ++i) {
    const int64_t before = a.position();
    const Window wa = a.next();
    const Window wb = b.next();
    const Window wc = c.next();
    EXPECT(same(wa, wb));  // same seed, same windows
    differs = differs || wa.steps != wc.steps;
    EXPECT(wa.steps >= 5);
    EXPECT(wa.steps <= a.stepsPerStream() - before);
    EXPECT_EQ(wa.inputs.front(), before);
    shortOnes += wa.steps < 52;  // from the bptt/2 = 35 branch (70 - 3.6 sigma)
    lengths.push_back(wa.steps);
  }
  EXPECT(differs);
  // About 5% of the windows come from the bptt / 2 branch.
  EXPECT_MSG(shortOnes >= 25 && shortOnes <= 80, shortOnes);
  double mean = 0;
  for (const int64_t n : lengths) mean += static_cast<double>(n) / 1000.0;
  EXPECT_NEAR(mean, 0.95 * 70 + 0.05 * 35, 1.5);
}

MRNN_TEST(batcher_random_lengths_stop_at_the_end_of_the_streams) {
  const TokenStream tokens = counting(1001);
  BatcherOptions o = options(1, 70);
  o.randomLength = true;
  StreamBatcher batcher(tokens, o);
  int64_t covered = 0;
  while (true) {
    const Window w = batcher.next();
    if (w.epochStart && covered > 0) break;
    covered += w.steps;
  }
  EXPECT_EQ(covered, int64_t{1000});  // every step once, the last window cut to fit
}

MRNN_TEST(batcher_restored_state_continues_exactly) {
  const TokenStream tokens = counting(5003);
  BatcherOptions o = options(4, 30);
  o.randomLength = true;
  o.predictLast = 10;
  o.seed = 7;
  StreamBatcher original(tokens, o);
  for (int i = 0; i < 60; ++i) original.next();  // past an epoch boundary (1250 steps)
  EXPECT(original.epoch() >= 1);
  const std::string state = original.saveState();
  BatcherOptions other = o;
  other.seed = 99;  // the generator state comes from the saved text, not the seed
  StreamBatcher resumed(tokens, other);
  resumed.restoreState(state);
  EXPECT_EQ(resumed.epoch(), original.epoch());
  EXPECT_EQ(resumed.position(), original.position());
  for (int i = 0; i < 100; ++i) EXPECT(same(original.next(), resumed.next()));
  EXPECT_EQ(resumed.saveState(), original.saveState());

  StreamBatcher wrongBatch(tokens, options(5, 30));
  EXPECT_THROWS_WITH(std::invalid_argument, wrongBatch.restoreState(state), "a batch of 4 rows");
  EXPECT_THROWS_WITH(std::invalid_argument, resumed.restoreState("position=3"), "cannot be read");
}
