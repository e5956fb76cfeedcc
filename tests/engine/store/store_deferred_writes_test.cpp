// A run's writes while another program holds the run database: they wait in memory, in
// order, never holding the loop up for more than a moment, and are written once it is free.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "engine/store/deferred_writes.h"
#include "engine/store/run_store.h"
#include "engine/store/unwritten_metrics.h"
#include "store_fixtures.h"
#include "test_harness.h"

using mrnn::engine::DeferredWrites;
using mrnn::engine::MetricPoint;
using mrnn::engine::RunRecord;
using mrnn::engine::RunStatus;
using mrnn::engine::RunStore;
using mrnn::engine::StoreBusyError;
using mrnn::engine::StoreError;
using mrnn::test::RawDatabase;
using mrnn::test::ScratchFolder;

namespace {

using HeldClock = std::chrono::steady_clock;

double secondsFrom(HeldClock::time_point start) {
  return std::chrono::duration<double>(HeldClock::now() - start).count();
}

DeferredWrites::Write appendLoss(int64_t run, int64_t step) {
  return [run, step](RunStore& store) {
    store.appendMetrics(run, {{"train/loss", step, 0, 0, 1.0 / static_cast<double>(step)}});
  };
}

}  // namespace

MRNN_TEST(store_a_held_database_is_named_as_such) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  RunStore store(path);
  const int64_t run = store.createRun(RunRecord{});
  RawDatabase other(path);
  other.execute("BEGIN EXCLUSIVE");
  store.setBusyWait(50);
  EXPECT_THROWS_WITH(StoreBusyError, store.updateProgress(run, 3, 1.0), path.c_str(),
                     "cannot update progress: another program holds it locked");
  other.execute("COMMIT");
}

MRNN_TEST(store_writes_wait_in_order_while_the_database_is_held) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  RunStore store(path);
  const int64_t run = store.createRun(RunRecord{});
  DeferredWrites writes(store);
  writes.write(appendLoss(run, 1));
  EXPECT_EQ(writes.waiting(), 0u);

  RawDatabase other(path);
  other.execute("BEGIN EXCLUSIVE");
  const auto start = HeldClock::now();
  for (int64_t step = 2; step <= 40; ++step) {
    writes.write(appendLoss(run, step));
    writes.write([run, step](RunStore& s) { s.updateProgress(run, step, 0.5); }, 1, "progress");
  }
  // One try waits for the lock; the rest wait in memory (and one retry a second).
  EXPECT_MSG(secondsFrom(start) < 1.5, "40 held writes took " << secondsFrom(start) << " s");
  EXPECT_EQ(writes.waiting(), 40u);  // the 39 appends and the newest progress
  other.execute("COMMIT");

  writes.write([run](RunStore& s) { s.setStatus(run, RunStatus::Stopped, "stopped"); });
  EXPECT_EQ(writes.waiting(), 41u);  // not tried again within the second
  EXPECT(writes.settle(std::chrono::seconds(5), {}));
  EXPECT_EQ(writes.waiting(), 0u);
  const std::vector<MetricPoint> points = store.metrics(run);
  EXPECT_EQ(points.size(), 40u);
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].step, static_cast<int64_t>(i + 1));
  }
  EXPECT_EQ(store.run(run)->steps, 40);
  EXPECT(store.run(run)->status == RunStatus::Stopped);
}

MRNN_TEST(store_settling_gives_up_when_asked_or_when_its_time_is_out) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  RunStore store(path);
  const int64_t run = store.createRun(RunRecord{});
  DeferredWrites writes(store);
  RawDatabase other(path);
  other.execute("BEGIN EXCLUSIVE");
  writes.write(appendLoss(run, 1));
  auto start = HeldClock::now();
  EXPECT(!writes.settle(std::chrono::milliseconds(300), {}));
  EXPECT_MSG(secondsFrom(start) < 1.0, "settling took " << secondsFrom(start) << " s");
  start = HeldClock::now();
  EXPECT(!writes.settle(std::chrono::minutes(1), [] { return true; }));
  EXPECT_MSG(secondsFrom(start) < 1.0, "giving up took " << secondsFrom(start) << " s");
  EXPECT_EQ(writes.waiting(), 1u);
  other.execute("COMMIT");
  EXPECT(writes.settle(std::chrono::seconds(5), {}));
  EXPECT_EQ(store.metrics(run).size(), 1u);
}

MRNN_TEST(store_held_writes_are_bounded_and_other_errors_are_not_held) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  RunStore store(path);
  const int64_t run = store.createRun(RunRecord{});
  DeferredWrites writes(store);
  // Not the lock: thrown at once, nothing waits.
  EXPECT_THROWS_WITH(StoreError, writes.write(appendLoss(run + 1, 1)), "no run");
  EXPECT_EQ(writes.waiting(), 0u);

  RawDatabase other(path);
  other.execute("BEGIN EXCLUSIVE");
  const int64_t half = DeferredWrites::kMaxWaitingWeight / 2;
  writes.write(appendLoss(run, 1), half);
  writes.write(appendLoss(run, 2), half);
  EXPECT_THROWS_WITH(StoreBusyError, writes.write(appendLoss(run, 3), 2),
                     "locked by another program for", "reached their limit");
  other.execute("COMMIT");
}

// What a run keeps when it can wait no longer: the waiting writes' metric points, in order,
// in a file that reads back exactly and names the line at fault when damaged.
MRNN_TEST(waiting_metric_points_are_found_and_kept_exactly) {
  ScratchFolder folder;
  RunStore store(folder.path() + "/runs.sqlite");
  RunRecord record;
  record.name = "r";
  const int64_t run = store.createRun(record);
  DeferredWrites writes(store);
  RawDatabase other(folder.path() + "/runs.sqlite");
  other.execute("BEGIN EXCLUSIVE");
  for (int64_t step = 1; step <= 3; ++step) {
    auto points = std::make_shared<const std::vector<MetricPoint>>(
        std::vector<MetricPoint>{{"train/loss", step, 0.1 * step, 1.0 / 3 * step, 2.0 / 7 * step},
                                 {"valid/bpc", step, 0.1 * step, 1e-300, -0.0}});
    writes.write([run, points](RunStore& s) { s.appendMetrics(run, *points); }, 2, nullptr, points);
  }
  writes.write([run](RunStore& s) { s.setStatus(run, RunStatus::Stopped); });
  const std::vector<MetricPoint> waiting = writes.waitingMetrics();
  EXPECT_EQ(waiting.size(), size_t{6});
  const std::string text = mrnn::engine::unwrittenMetricsText(waiting);
  const auto back = mrnn::engine::parseUnwrittenMetrics(text, "u.tsv");
  EXPECT_EQ(back.size(), waiting.size());
  for (size_t i = 0; i < back.size() && i < waiting.size(); ++i) {
    EXPECT_EQ(back[i].name, waiting[i].name);
    EXPECT_EQ(back[i].step, waiting[i].step);
    EXPECT(back[i].epoch == waiting[i].epoch);  // exactly, not nearly
    EXPECT(back[i].wallSeconds == waiting[i].wallSeconds);
    EXPECT(back[i].value == waiting[i].value);
  }
  other.execute("ROLLBACK");
  EXPECT(writes.settle(std::chrono::seconds(5), {}));
  EXPECT(writes.waitingMetrics().empty());
  // Damaged: cut short, a field that is no number, a file of something else.
  using mrnn::engine::UnwrittenMetricsError;
  EXPECT_THROWS_WITH(UnwrittenMetricsError,
                     mrnn::engine::parseUnwrittenMetrics(text.substr(0, text.size() - 3), "u.tsv"),
                     "u.tsv:7", "cut short");
  std::string bad = text;
  bad.replace(bad.find("\t2\t"), 3, "\tx\t");
  EXPECT_THROWS_WITH(UnwrittenMetricsError, mrnn::engine::parseUnwrittenMetrics(bad, "u.tsv"),
                     "u.tsv:4", "'x' is not a step");
  EXPECT_THROWS_WITH(UnwrittenMetricsError,
                     mrnn::engine::parseUnwrittenMetrics("step,loss\n1,2\n", "u.tsv"), "u.tsv:1",
                     "not a file of a run's unwritten metric points");
  EXPECT_THROWS_WITH(UnwrittenMetricsError, mrnn::engine::parseUnwrittenMetrics("", "u.tsv"),
                     "empty");
}
