// Importing a run from another project's database (RunStore::importRun): the experiment
// queue's Slurm trials train into private run folders and the submit host copies their runs
// into the project's store. The copy must be whole (record, every metric, checkpoints found
// from the project), idempotent (the same source run imported again replaces its copy) and
// never mistake this database for a source.
#include <cmath>
#include <filesystem>
#include <fstream>

#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "store_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using engine::RunCatalogue;
using engine::RunStatus;
using test::ScratchFolder;

namespace {

// A trial's private folder inside the project, as the Slurm executor lays it out.
const char* kPrivate = "experiment-logs/e/slurm/trial-2";

int64_t addTrainedRun(RunCatalogue& catalogue, int64_t steps, double best) {
  engine::RunRecord record;
  record.name = "trial";
  record.modelType = "lstm";
  record.parameters = 2509;
  record.configYaml = "data: {train: /abs/corpus.txt}\n";
  const int64_t id = catalogue.store().createRun(record);
  std::vector<engine::MetricPoint> points;
  for (int64_t step = 1; step <= steps; ++step) {
    points.push_back({"train/loss", step, 0.1 * static_cast<double>(step), 0.5, 4.0 - 0.01 * step});
  }
  points.push_back({"valid/bpc", steps, 1.0, 1.0, best});
  catalogue.store().appendMetrics(id, points);
  catalogue.store().recordCheckpoint(
      id, {"best", "checkpoints/run-" + std::to_string(id) + "/best.pt", steps, best, ""});
  catalogue.store().recordCheckpoint(
      id, {"latest", "checkpoints/run-" + std::to_string(id) + "/latest.pt", steps, best, ""});
  catalogue.store().setBestValid(id, best);
  catalogue.store().updateProgress(id, steps, 2.5);
  catalogue.store().setStatus(id, RunStatus::Stopped, "budget reached");
  // The files, so that the catalogue finds them.
  const std::string folder = engine::RunPaths::checkpointFolder(catalogue.folder(), id);
  std::filesystem::create_directories(folder);
  std::ofstream(folder + "/best.pt") << "b";
  std::ofstream(folder + "/latest.pt") << "l";
  return id;
}

}  // namespace

MRNN_TEST(an_imported_run_has_its_record_metrics_and_checkpoints) {
  ScratchFolder project;
  RunCatalogue target(project.path(), RunCatalogue::Access::ReadWrite);
  // A run of the project's own first: the import must take a new id, not the source's.
  engine::RunRecord own;
  own.name = "own";
  target.store().createRun(own);
  RunCatalogue source(project.file(kPrivate), RunCatalogue::Access::ReadWrite);
  const int64_t sourceId = addTrainedRun(source, 20, 3.5);
  source.store().setNote(sourceId, "trained on node 7");

  const int64_t id = target.store().importRun(source.store(), sourceId, std::string("planned"));
  EXPECT_EQ(id, 2);
  const auto run = target.run(id);
  EXPECT(run.has_value());
  EXPECT_EQ(run->name, "trial");
  EXPECT_EQ(run->note, "trained on node 7");  // the note travels with the run
  EXPECT_EQ(run->parameters, 2509);
  EXPECT_EQ(run->steps, 20);
  EXPECT_EQ(run->configYaml, "planned");  // the override, not the source's absolute paths
  EXPECT(run->status == RunStatus::Stopped);
  EXPECT_EQ(run->reason, "budget reached");
  EXPECT_EQ(*run->bestValid, 3.5);
  EXPECT_EQ(run->durationSeconds, 2.5);
  EXPECT_EQ(target.store().metrics(id, "train/loss").size(), 20u);
  EXPECT_EQ(target.store().metrics(id).size(), 21u);
  // The checkpoints are the private folder's files, recorded relative to the project.
  const auto records = target.store().checkpoints(id);
  EXPECT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].path,
            std::string(kPrivate) + "/checkpoints/run-" + std::to_string(sourceId) + "/best.pt");
  const auto files = target.checkpoints(id);
  EXPECT_EQ(files.size(), 2u);
  EXPECT(std::filesystem::equivalent(target.checkpointToAnalyse(id),
                                     engine::RunPaths::best(source.folder(), sourceId)));
  const auto origin = target.store().origin(id);
  EXPECT(origin.has_value());
  EXPECT_EQ(origin->project, source.projectId());
  EXPECT_EQ(origin->run, sourceId);
  EXPECT_EQ(origin->folder, std::string(kPrivate));
  EXPECT(!target.store().origin(1).has_value());
}

MRNN_TEST(importing_the_same_run_again_replaces_its_copy) {
  ScratchFolder project;
  RunCatalogue target(project.path(), RunCatalogue::Access::ReadWrite);
  RunCatalogue source(project.file(kPrivate), RunCatalogue::Access::ReadWrite);
  const int64_t sourceId = addTrainedRun(source, 10, 3.9);
  const int64_t first = target.store().importRun(source.store(), sourceId);
  // The trial goes on (a halving rung, a resubmitted job) and is collected again.
  source.store().deleteMetricsAfter(sourceId, 10);
  std::vector<engine::MetricPoint> more;
  for (int64_t step = 11; step <= 40; ++step) more.push_back({"train/loss", step, 0, 0, 1.0});
  source.store().appendMetrics(sourceId, more);
  source.store().updateProgress(sourceId, 40, 9.0);
  source.store().setBestValid(sourceId, 3.2);
  source.store().setStatus(sourceId, RunStatus::Finished);
  const int64_t second = target.store().importRun(source.store(), sourceId);
  EXPECT_EQ(second, first);
  EXPECT_EQ(target.store().listRuns().size(), 1u);
  EXPECT_EQ(target.store().metrics(first, "train/loss").size(), 40u);  // not 10 + 40
  EXPECT_EQ(target.store().checkpoints(first).size(), 2u);
  const auto run = target.store().run(first);
  EXPECT_EQ(run->steps, 40);
  EXPECT_EQ(*run->bestValid, 3.2);
  EXPECT(run->status == RunStatus::Finished);
  // A second run of the same private store is a run of its own here.
  const int64_t other = addTrainedRun(source, 5, 4.0);
  EXPECT(target.store().importRun(source.store(), other) != first);
  EXPECT_EQ(target.store().listRuns().size(), 2u);
}

MRNN_TEST(deleting_an_imported_run_forgets_its_origin) {
  ScratchFolder project;
  RunCatalogue target(project.path(), RunCatalogue::Access::ReadWrite);
  RunCatalogue source(project.file(kPrivate), RunCatalogue::Access::ReadWrite);
  const int64_t sourceId = addTrainedRun(source, 3, 4.0);
  const int64_t id = target.store().importRun(source.store(), sourceId);
  target.store().deleteRun(id);
  EXPECT(!target.store().origin(id).has_value());
  // Imported afresh, it is a new run (ids are never reused).
  EXPECT(target.store().importRun(source.store(), sourceId) > id);
}

MRNN_TEST(a_source_outside_the_project_keeps_absolute_paths) {
  ScratchFolder project;
  ScratchFolder elsewhere;
  RunCatalogue target(project.path(), RunCatalogue::Access::ReadWrite);
  RunCatalogue source(elsewhere.path(), RunCatalogue::Access::ReadWrite);
  const int64_t sourceId = addTrainedRun(source, 3, 4.0);
  const int64_t id = target.store().importRun(source.store(), sourceId);
  for (const auto& record : target.store().checkpoints(id)) {
    EXPECT_MSG(std::filesystem::path(record.path).is_absolute(), record.path);
  }
  EXPECT_EQ(target.checkpoints(id).size(), 2u);
  EXPECT(std::filesystem::path(target.store().origin(id)->folder).is_absolute());
}

MRNN_TEST(a_run_is_never_imported_into_its_own_database_or_from_nothing) {
  ScratchFolder project;
  RunCatalogue target(project.path(), RunCatalogue::Access::ReadWrite);
  const int64_t own = addTrainedRun(target, 3, 4.0);
  engine::RunStore again(engine::RunPaths::database(project.path()));
  EXPECT_THROWS_WITH(engine::StoreError, target.store().importRun(again, own), "is this database");
  RunCatalogue source(project.file(kPrivate), RunCatalogue::Access::ReadWrite);
  EXPECT_THROWS_WITH(engine::StoreError, target.store().importRun(source.store(), 7), "no run 7",
                     kPrivate);
  EXPECT_EQ(target.store().listRuns().size(), 1u);
}

MRNN_TEST(a_read_only_store_without_imports_has_no_origins) {
  ScratchFolder project;
  { RunCatalogue create(project.path(), RunCatalogue::Access::ReadWrite); }
  const RunCatalogue reader(project.path());
  EXPECT(!reader.store().origin(1).has_value());
}
