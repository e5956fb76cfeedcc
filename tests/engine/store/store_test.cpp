// The run database's API with known answers: what goes in comes back exactly.
#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "engine/store/imported_run.h"
#include "engine/store/run_store.h"
#include "store_fixtures.h"
#include "test_harness.h"

using mrnn::engine::CheckpointRecord;
using mrnn::engine::MetricPoint;
using mrnn::engine::RunRecord;
using mrnn::engine::RunStatus;
using mrnn::engine::RunStore;
using mrnn::engine::StoreError;
using mrnn::test::RawDatabase;
using mrnn::test::ScratchFolder;

namespace {

RunRecord namedRun(const std::string& name) {
  RunRecord run;
  run.name = name;
  run.modelType = "mlstm";
  run.parameters = 1000;
  return run;
}

bool isIsoUtc(const std::string& text) {
  return std::regex_match(text, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"));
}

}  // namespace

MRNN_TEST(store_status_names_round_trip) {
  const std::vector<std::pair<RunStatus, std::string>> names = {{RunStatus::Running, "running"},
                                                                {RunStatus::Paused, "paused"},
                                                                {RunStatus::Stopped, "stopped"},
                                                                {RunStatus::Finished, "finished"},
                                                                {RunStatus::Failed, "failed"}};
  for (const auto& [status, name] : names) {
    EXPECT_EQ(mrnn::engine::runStatusName(status), name);
    EXPECT(mrnn::engine::runStatusFromName(name) == status);
  }
  EXPECT(!mrnn::engine::runStatusFromName("Running").has_value());
  EXPECT(!mrnn::engine::runStatusFromName("").has_value());
}

MRNN_TEST(store_tells_an_imported_run_by_its_record) {
  // As engine/interop's importAsRun records one: finished, no step, the source in the reason.
  RunRecord run = namedRun("imported lm.pt");
  run.status = RunStatus::Finished;
  run.reason = "imported from /data/models/lm.pt";
  EXPECT(mrnn::engine::isImportedRun(run));
  EXPECT_EQ(mrnn::engine::importedRunSource(run), std::string("/data/models/lm.pt"));
  // A run that trained is not one, whatever its reason says; nor is a run without the words.
  RunRecord trained = run;
  trained.steps = 1;
  EXPECT(!mrnn::engine::isImportedRun(trained));
  EXPECT_EQ(mrnn::engine::importedRunSource(trained), std::string());
  RunRecord stopped = namedRun("stopped early");
  stopped.reason = "stopped before its first step; imported from nowhere";
  EXPECT(!mrnn::engine::isImportedRun(stopped));
  EXPECT(!mrnn::engine::isImportedRun(namedRun("fresh")));
}

MRNN_TEST(store_creates_and_reads_back_a_run) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  EXPECT_EQ(store.path(), folder.file("runs.sqlite"));
  RunRecord input;
  input.id = 99;  // ignored: the store assigns ids
  input.name = "char-small";
  input.modelType = "mlstm x2";
  input.parameters = 4'000'000'000LL;
  input.configYaml = "model:\n  layers: [mlstm, mlstm]\n";
  input.startedAt = "2024-05-01T10:00:00Z";
  input.status = RunStatus::Paused;
  input.reason = "paused by hand";
  input.durationSeconds = 12.25;
  input.bestValid = 1.0 / 3.0;
  input.steps = 300;
  const int64_t id = store.createRun(input);
  EXPECT_EQ(id, 1);

  const auto run = store.run(id);
  EXPECT(run.has_value());
  EXPECT_EQ(run->id, id);
  EXPECT_EQ(run->name, input.name);
  EXPECT_EQ(run->modelType, input.modelType);
  EXPECT_EQ(run->parameters, input.parameters);
  EXPECT_EQ(run->configYaml, input.configYaml);
  EXPECT_EQ(run->startedAt, input.startedAt);
  EXPECT_EQ(run->endedAt, "");
  EXPECT(run->status == RunStatus::Paused);
  EXPECT_EQ(run->reason, input.reason);
  EXPECT_EQ(run->durationSeconds, 12.25);
  EXPECT(run->bestValid == 1.0 / 3.0);  // bit-exact
  EXPECT(!run->testResult.has_value());
  EXPECT_EQ(run->steps, 300);
  EXPECT(!store.run(id + 1).has_value());

  // An empty start time becomes now, in ISO 8601 UTC; the next id follows.
  const int64_t second = store.createRun(namedRun("second"));
  EXPECT_EQ(second, 2);
  EXPECT_MSG(isIsoUtc(store.run(second)->startedAt), store.run(second)->startedAt);
}

MRNN_TEST(store_runs_take_a_name_and_a_note) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  RunRecord input;
  input.name = "mlstm 256";
  const int64_t id = store.createRun(input);
  const int64_t other = store.createRun(input);
  const auto noteOf = [&store](int64_t run) { return store.run(run).value().note; };
  const auto nameOf = [&store](int64_t run) { return store.run(run).value().name; };
  EXPECT_EQ(noteOf(id), std::string());  // no notes table yet: none to read
  store.renameRun(id, "mLSTM, the baseline");
  store.setNote(id, "lr from the Krause grid; compare with run 2");
  EXPECT_EQ(nameOf(id), std::string("mLSTM, the baseline"));
  EXPECT_EQ(noteOf(id), std::string("lr from the Krause grid; compare with run 2"));
  const std::vector<RunRecord> listed = store.listRuns();
  EXPECT_EQ(listed[1].note, std::string());
  EXPECT_THROWS_WITH(StoreError, store.renameRun(id, "  "), "a name cannot be empty");
  EXPECT_THROWS_WITH(StoreError, store.setNote(99, "x"), "no run 99");
  const std::string csv = store.exportRunsCsv();
  EXPECT_MSG(csv.find(",lr from the Krause grid; compare with run 2\n") != std::string::npos, csv);
  // A note is removed by an empty one, and goes with its run.
  store.setNote(other, "to delete");
  store.setNote(id, "");
  EXPECT_EQ(noteOf(id), std::string());
  store.deleteRun(other);
  RawDatabase raw(folder.file("runs.sqlite"));
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM run_notes"), std::string("0"));
  // Read-only, the notes read back too.
  store.setNote(id, "kept");
  RunStore reader(folder.file("runs.sqlite"), RunStore::Access::ReadOnly);
  EXPECT_EQ(reader.run(id).value().note, std::string("kept"));
}

MRNN_TEST(store_metrics_read_back_exactly) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  const int64_t id = store.createRun(namedRun("metrics"));
  const double tiny = std::numeric_limits<double>::denorm_min();
  const std::vector<MetricPoint> loss = {{"train/loss", 1, 0.001, 0.5, 0.1},
                                         {"train/loss", 2, 0.002, 1.0, 1.0 / 3.0},
                                         {"train/loss", 3, 0.003, 1.5, tiny},
                                         {"train/loss", 4, 0.004, 2.0, -1e300}};
  const std::vector<MetricPoint> lr = {{"lr", 1, 0.001, 0.5, 3e-4}, {"lr", 2, 0.002, 1.0, 2e-4}};
  // Interleaved and out of step order: reads come back sorted by name, then step.
  store.appendMetrics(id, {loss[2], lr[1], loss[0]});
  store.appendMetrics(id, {loss[3], lr[0], loss[1]});
  store.appendMetrics(id, {});  // nothing to write is fine

  const auto same = [](const MetricPoint& a, const MetricPoint& b) {
    return a.name == b.name && a.step == b.step && a.epoch == b.epoch &&
           a.wallSeconds == b.wallSeconds && a.value == b.value;
  };
  const auto readLoss = store.metrics(id, "train/loss");
  EXPECT_EQ(readLoss.size(), loss.size());
  for (size_t i = 0; i < loss.size(); ++i) EXPECT_MSG(same(readLoss[i], loss[i]), "point " << i);

  const auto all = store.metrics(id);
  EXPECT_EQ(all.size(), 6u);
  EXPECT(same(all[0], lr[0]) && same(all[1], lr[1]));
  for (size_t i = 0; i < loss.size(); ++i) EXPECT(same(all[2 + i], loss[i]));

  EXPECT(store.metricNames(id) == std::vector<std::string>({"lr", "train/loss"}));
  const auto summaries = store.metricSummaries(id);
  EXPECT_EQ(summaries.size(), 2u);
  EXPECT_EQ(summaries[0].name, "lr");
  EXPECT_EQ(summaries[0].points, 2);
  EXPECT_EQ(summaries[0].lastStep, 2);
  EXPECT_EQ(summaries[0].lastValue, 2e-4);
  EXPECT_EQ(summaries[1].points, 4);
  EXPECT_EQ(summaries[1].lastStep, 4);
  EXPECT_EQ(summaries[1].lastValue, -1e300);

  // A NaN loss (a diverged run) is kept as a point and reads back as NaN; so are NaN times.
  store.appendMetrics(id, {{"train/loss", 5, std::nan(""), std::nan(""), std::nan("")}});
  const auto withNan = store.metrics(id, "train/loss");
  EXPECT_EQ(withNan.size(), 5u);
  EXPECT_EQ(withNan.back().step, 5);
  EXPECT(std::isnan(withNan.back().value));
  EXPECT(std::isnan(withNan.back().epoch) && std::isnan(withNan.back().wallSeconds));

  EXPECT(store.metrics(id, "no/such").empty());
  EXPECT(store.metrics(id + 1).empty());
  EXPECT(store.metricNames(id + 1).empty());
}

MRNN_TEST(store_checkpoint_replaced_by_kind) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  const int64_t id = store.createRun(namedRun("checkpoints"));
  store.recordCheckpoint(id, {"latest", "checkpoints/1/latest.pt", 100, std::nullopt, ""});
  store.recordCheckpoint(id, {"best", "checkpoints/1/best.pt", 100, 1.5, "2024-01-01T00:00:00Z"});
  store.recordCheckpoint(id, {"latest", "checkpoints/1/latest.pt", 200, std::nullopt, ""});
  store.recordCheckpoint(id, {"best", "checkpoints/1/best.pt", 200, 1.25, "2024-01-01T00:01:00Z"});

  const auto records = store.checkpoints(id);
  EXPECT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].kind, "best");
  EXPECT_EQ(records[0].path, "checkpoints/1/best.pt");
  EXPECT_EQ(records[0].step, 200);
  EXPECT(records[0].validLoss == 1.25);
  EXPECT_EQ(records[0].savedAt, "2024-01-01T00:01:00Z");
  EXPECT_EQ(records[1].kind, "latest");
  EXPECT_EQ(records[1].step, 200);
  EXPECT(!records[1].validLoss.has_value());
  EXPECT_MSG(isIsoUtc(records[1].savedAt), records[1].savedAt);  // empty became now

  RawDatabase raw(store.path());
  EXPECT_EQ(raw.count("SELECT COUNT(*) FROM checkpoints"), 2);
}

MRNN_TEST(store_status_transitions_set_ended_at) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  const int64_t id = store.createRun(namedRun("status"));
  EXPECT(store.run(id)->status == RunStatus::Running);
  EXPECT(store.run(id)->endedAt.empty());

  store.setStatus(id, RunStatus::Paused);
  EXPECT(store.run(id)->status == RunStatus::Paused);
  EXPECT(store.run(id)->endedAt.empty());

  store.setStatus(id, RunStatus::Stopped, "stopped by the user");
  auto run = store.run(id);
  EXPECT(run->status == RunStatus::Stopped);
  EXPECT_EQ(run->reason, "stopped by the user");
  EXPECT_MSG(isIsoUtc(run->endedAt), run->endedAt);

  // An ended run keeps its end time when its status changes between ended states.
  RawDatabase raw(store.path());
  raw.execute("UPDATE runs SET ended_at = '2000-01-01T00:00:00Z'");
  store.setStatus(id, RunStatus::Failed, "checkpoint unreadable");
  run = store.run(id);
  EXPECT(run->status == RunStatus::Failed);
  EXPECT_EQ(run->reason, "checkpoint unreadable");
  EXPECT_EQ(run->endedAt, "2000-01-01T00:00:00Z");

  // Resumed: not ended any more; then finished with a fresh end time.
  store.setStatus(id, RunStatus::Running);
  run = store.run(id);
  EXPECT_EQ(run->endedAt, "");
  EXPECT_EQ(run->reason, "");
  store.setStatus(id, RunStatus::Finished);
  run = store.run(id);
  EXPECT(run->status == RunStatus::Finished);
  EXPECT_MSG(isIsoUtc(run->endedAt) && run->endedAt != "2000-01-01T00:00:00Z", run->endedAt);

  // A run created already ended gets an end time too.
  RunRecord failed = namedRun("failed at start");
  failed.status = RunStatus::Failed;
  EXPECT(isIsoUtc(store.run(store.createRun(failed))->endedAt));
}

MRNN_TEST(store_progress_best_and_test_results) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  const int64_t id = store.createRun(namedRun("progress"));
  store.updateProgress(id, 1500, 61.75);
  store.setBestValid(id, 1.375);
  store.setTestResult(id, 1.4375);
  const auto run = store.run(id);
  EXPECT_EQ(run->steps, 1500);
  EXPECT_EQ(run->durationSeconds, 61.75);
  EXPECT(run->bestValid == 1.375);
  EXPECT(run->testResult == 1.4375);
}

MRNN_TEST(store_list_orders_by_id_and_never_reuses_ids) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  EXPECT(store.listRuns().empty());
  store.createRun(namedRun("a"));
  store.createRun(namedRun("b"));
  const int64_t c = store.createRun(namedRun("c"));
  store.deleteRun(c);
  const int64_t d = store.createRun(namedRun("d"));
  EXPECT_EQ(d, 4);  // AUTOINCREMENT: the deleted id 3 is not handed out again
  const auto runs = store.listRuns();
  EXPECT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].name, "a");
  EXPECT_EQ(runs[1].name, "b");
  EXPECT_EQ(runs[2].name, "d");
  EXPECT_EQ(runs[2].id, 4);
}

MRNN_TEST(store_delete_cascades_to_metrics_and_checkpoints) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  const int64_t keep = store.createRun(namedRun("keep"));
  const int64_t drop = store.createRun(namedRun("drop"));
  for (const int64_t id : {keep, drop}) {
    store.appendMetrics(id, {{"train/loss", 1, 0, 0, 2.0}, {"lr", 1, 0, 0, 0.1}});
    store.recordCheckpoint(id, {"latest", "x.pt", 1, std::nullopt, ""});
  }
  store.deleteRun(drop);
  EXPECT(!store.run(drop).has_value());
  EXPECT(store.metrics(drop).empty());
  EXPECT(store.checkpoints(drop).empty());
  EXPECT_EQ(store.metrics(keep).size(), 2u);
  EXPECT_EQ(store.checkpoints(keep).size(), 1u);
  RawDatabase raw(store.path());
  EXPECT_EQ(raw.count("SELECT COUNT(*) FROM metrics WHERE run_id = " + std::to_string(drop)), 0);
  EXPECT_EQ(raw.count("SELECT COUNT(*) FROM checkpoints WHERE run_id = " + std::to_string(drop)),
            0);
  EXPECT_EQ(raw.count("SELECT COUNT(*) FROM metrics"), 2);
}

MRNN_TEST(store_writes_to_unknown_runs_are_refused) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  const std::string path = store.path();
  EXPECT_THROWS_WITH(StoreError, store.appendMetrics(7, {{"lr", 1, 0, 0, 1}}), path.c_str(),
                     "no run 7");
  EXPECT_THROWS_WITH(StoreError, store.recordCheckpoint(7, {"best", "b.pt", 1, 1.0, ""}),
                     "no run 7");
  EXPECT_THROWS_WITH(StoreError, store.updateProgress(7, 1, 1), "no run 7");
  EXPECT_THROWS_WITH(StoreError, store.setStatus(7, RunStatus::Failed), "no run 7");
  EXPECT_THROWS_WITH(StoreError, store.setBestValid(7, 1), "no run 7");
  EXPECT_THROWS_WITH(StoreError, store.setTestResult(7, 1), "no run 7");
  EXPECT_THROWS_WITH(StoreError, store.deleteRun(7), "no run 7");
  RawDatabase raw(path);
  EXPECT_EQ(raw.count("SELECT COUNT(*) FROM metrics"), 0);
  // A failed write leaves no transaction open: the next one works.
  const int64_t id = store.createRun(namedRun("after"));
  store.appendMetrics(id, {{"lr", 1, 0, 0, 1}});
  EXPECT_EQ(store.metrics(id).size(), 1u);
}

MRNN_TEST(store_persists_across_reopening) {
  ScratchFolder folder;
  int64_t id = 0;
  {
    RunStore store(folder.file("runs.sqlite"));
    id = store.createRun(namedRun("persisted"));
    store.appendMetrics(id, {{"train/loss", 10, 1, 2, 3}});
    store.setStatus(id, RunStatus::Finished);
  }
  RunStore store(folder.file("runs.sqlite"));
  EXPECT_EQ(store.listRuns().size(), 1u);
  EXPECT(store.run(id)->status == RunStatus::Finished);
  EXPECT_EQ(store.metrics(id).size(), 1u);
  EXPECT_EQ(store.integrityCheck(), "ok");
  RawDatabase raw(store.path());
  EXPECT_EQ(raw.scalar("PRAGMA user_version"), std::to_string(RunStore::kSchemaVersion));
  EXPECT_EQ(raw.scalar("PRAGMA journal_mode"), "wal");
}
