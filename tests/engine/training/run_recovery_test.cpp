// Runs whose record a lost run database took with it come back from their checkpoints: the
// database moved aside, deleted, or set aside as damaged; the checkpoint folders stay.
#include <filesystem>
#include <fstream>

#include "engine/config/model_names.h"
#include "engine/runtime/job_context.h"
#include "engine/store/imported_run.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/unwritten_metrics.h"
#include "engine/training/checkpoint.h"
#include "engine/training/run_recovery.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"

using namespace mrnn;
using namespace mrnn::test;
namespace fs = std::filesystem;

namespace {

engine::Project shortRun(const ScratchProject& scratch, int64_t steps) {
  auto project = scratch.project(5000);
  project.training.maxSteps = steps;
  project.training.validateEvery = steps;
  return project;
}

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

// The defect: a run database that was lost (deleted, moved aside, or refused as damaged and
// then moved aside as the workbench told) took every run with it: their checkpoints were
// still in the project, but no window, command or resume could reach them again.
MRNN_TEST(runs_come_back_from_their_checkpoints_when_the_database_went) {
  ScratchProject scratch("recover-runs");
  const auto project = shortRun(scratch, 3);
  const auto first = trainToEnd(project);
  EXPECT_MSG(first.finished, first.reason);
  auto trial = project;  // an experiment's trial: its run is named after its setting
  trial.runName = "lr-sweep #2: lr=0.003";
  const auto second = trainToEnd(trial);
  EXPECT_MSG(second.finished, second.reason);
  const engine::RunRecord before = *engine::RunCatalogue(project.folder).run(second.runId);
  const std::string latest = engine::RunPaths::latest(project.folder, second.runId);
  const std::string latestBytes = fileBytes(latest);
  // Points a stop could not write, kept beside the checkpoints: they come back too.
  engine::MetricPoint kept{"train/loss", 3, 0.0, 1.0, 4.5};
  {
    std::ofstream out(engine::RunPaths::unwrittenMetrics(project.folder, second.runId));
    out << engine::unwrittenMetricsText({kept});
  }
  fs::rename(engine::RunPaths::database(project.folder), project.folder + "/runs.sqlite.old");
  for (const char* suffix : {"-wal", "-shm"}) {
    fs::remove(engine::RunPaths::database(project.folder) + suffix);
  }

  EXPECT(engine::unrecordedRuns(project.folder) ==
         std::vector<int64_t>({first.runId, second.runId}));
  {
    // Cancelled (a window closing): it stops before the next run, recording nothing more.
    engine::StopToken stop;
    stop.requestStop();
    engine::JobContext cancelled({}, stop);
    EXPECT_THROWS_WITH(engine::JobCancelledError, engine::recoverRuns(project.folder, &cancelled),
                       "");
    EXPECT_EQ(engine::unrecordedRuns(project.folder).size(), size_t{2});
  }
  const engine::RunRecovery recovery = engine::recoverRuns(project.folder);
  EXPECT_MSG(recovery.skipped.empty(), recovery.skipped.front());
  EXPECT_EQ(recovery.recovered.size(), size_t{2});
  EXPECT(engine::unrecordedRuns(project.folder).empty());

  const engine::RunCatalogue catalogue(project.folder);
  const auto run = catalogue.run(second.runId);
  EXPECT(run.has_value());
  EXPECT_EQ(run->steps, int64_t{3});
  EXPECT_EQ(run->name, std::string("lr-sweep #2: lr=0.003"));
  EXPECT_EQ(catalogue.run(first.runId)->name, engine::defaultRunName(project.model));
  EXPECT_EQ(run->parameters, before.parameters);
  EXPECT(run->bestValid.has_value());
  EXPECT_NEAR(*run->bestValid, *before.bestValid, 1e-9);
  EXPECT(run->status == engine::RunStatus::Finished);  // it reached max_steps
  EXPECT_MSG(run->reason.find("recovered") != std::string::npos, run->reason);
  EXPECT_EQ(catalogue.store().metrics(second.runId, "train/loss").size(), size_t{1});
  EXPECT_EQ(catalogue.checkpoints(second.runId).size(), size_t{2});
  EXPECT(fileBytes(latest) == latestBytes);  // nothing in the run folder changed

  // It resumes in the new database, which answers to the project id its checkpoints carry.
  auto longer = project;
  longer.training.maxSteps = 5;
  engine::RunLength length;
  length.maxSteps = 5;
  const auto resumed = trainToEnd(longer, catalogue.checkpointToResume(second.runId), length);
  EXPECT_MSG(resumed.finished, resumed.reason);
  EXPECT_EQ(resumed.runId, second.runId);
  EXPECT_EQ(engine::RunCatalogue(project.folder).run(second.runId)->steps, int64_t{5});
  // A new run passes the recovered ones' ids.
  const auto third = trainToEnd(project);
  EXPECT_MSG(third.finished, third.reason);
  EXPECT_EQ(third.runId, second.runId + 1);
}

// A database trained into after the old one was moved aside keeps its runs, and takes the
// old ones beside them; a folder holding another run's checkpoint is left alone, in words.
MRNN_TEST(recovered_runs_join_a_database_begun_again) {
  ScratchProject scratch("recover-beside");
  const auto project = shortRun(scratch, 2);
  const auto first = trainToEnd(project);
  EXPECT_MSG(first.finished, first.reason);
  fs::remove(engine::RunPaths::database(project.folder));
  for (const char* suffix : {"-wal", "-shm"}) {
    fs::remove(engine::RunPaths::database(project.folder) + suffix);
  }
  const auto again = trainToEnd(project);  // a new database, another project id
  EXPECT_MSG(again.finished, again.reason);
  EXPECT_EQ(again.runId, first.runId + 1);
  // Run 1's best checkpoint damaged: recovered from its latest, the damage said.
  {
    std::fstream best(engine::RunPaths::best(project.folder, first.runId),
                      std::ios::binary | std::ios::in | std::ios::out);
    best.seekp(3000);
    best << "XXXX";
  }
  // Run 1's checkpoint copied into a folder of its own: not recovered as another run.
  fs::create_directories(engine::RunPaths::checkpointFolder(project.folder, 9));
  fs::copy_file(engine::RunPaths::latest(project.folder, first.runId),
                engine::RunPaths::latest(project.folder, 9));

  const engine::RunRecovery recovery = engine::recoverRuns(project.folder);
  EXPECT_EQ(recovery.recovered.size(), size_t{1});
  EXPECT_EQ(recovery.skipped.size(), size_t{1});
  if (!recovery.skipped.empty()) {
    EXPECT_MSG(recovery.skipped.front().find("holds run 1's checkpoint") != std::string::npos,
               recovery.skipped.front());
  }
  if (!recovery.recovered.empty()) {
    EXPECT_MSG(recovery.recovered.front().unreadable.find("best.pt") != std::string::npos,
               recovery.recovered.front().unreadable);
  }
  const engine::RunCatalogue catalogue(project.folder);
  EXPECT_EQ(catalogue.runs().size(), size_t{2});
  EXPECT_EQ(catalogue.store().checkpoints(first.runId).size(), size_t{1});  // the whole one
  auto longer = project;
  engine::RunLength length;
  length.maxSteps = 4;
  const auto resumed = trainToEnd(longer, catalogue.checkpointToResume(first.runId), length);
  EXPECT_MSG(resumed.finished, resumed.reason);
  EXPECT_EQ(resumed.runId, first.runId);
}

// Setting a damaged database aside moves it, with its log, under a new name and never over a
// file; the runs then come back from their checkpoints.
MRNN_TEST(a_damaged_database_is_set_aside_whole_and_its_runs_recovered) {
  ScratchProject scratch("recover-damaged");
  const auto project = shortRun(scratch, 2);
  const auto first = trainToEnd(project);
  EXPECT_MSG(first.finished, first.reason);
  const std::string database = engine::RunPaths::database(project.folder);
  std::string garbage(8192, '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>((i * 7919) % 251);
  {
    std::ofstream out(database, std::ios::binary | std::ios::trunc);
    out << garbage;
  }
  EXPECT_THROWS_WITH(engine::StoreDamagedError, engine::unrecordedRuns(project.folder),
                     "not a run database", "--set-aside");
  const std::string aside = engine::setAsideRunDatabase(project.folder);
  EXPECT_MSG(aside.find("runs.sqlite.damaged-") != std::string::npos, aside);
  EXPECT(fileBytes(aside) == garbage);
  EXPECT(!fs::exists(database));
  EXPECT_EQ(engine::recoverRuns(project.folder).recovered.size(), size_t{1});
  // A second damaged file set aside in the same second takes another name.
  {
    std::ofstream out(database, std::ios::binary | std::ios::trunc);
    out << garbage;
  }
  const std::string second = engine::setAsideRunDatabase(project.folder);
  EXPECT(second != aside);
  EXPECT(fileBytes(aside) == garbage);
}

// A model imported from a file comes back as an import (named, finished, its source file
// named), never as a run to resume: it has weights but no training state.
MRNN_TEST(an_imported_model_is_recovered_as_an_import) {
  ScratchProject scratch("recover-import");
  const auto project = shortRun(scratch, 2);
  const auto first = trainToEnd(project);
  EXPECT_MSG(first.finished, first.reason);
  {
    // As `mrnn import` writes one: step 0, no training state, its source named.
    auto checkpoint = engine::Checkpoint::open(engine::RunPaths::latest(project.folder, 1));
    engine::LanguageModel model(project.model, checkpoint.vocabulary().size());
    checkpoint.loadModel(model);
    engine::TrainingSnapshot snapshot = checkpoint.snapshot();
    snapshot.step = 0;
    snapshot.batcherState.clear();
    snapshot.scheduleState.clear();
    snapshot.runId = 5;
    snapshot.runName = "imported lm.pt";
    snapshot.importedFrom = "/data/lm.pt";
    fs::create_directories(engine::RunPaths::checkpointFolder(project.folder, 5));
    engine::Checkpoint::save(engine::RunPaths::latest(project.folder, 5), snapshot, model, nullptr,
                             nullptr);
  }
  EXPECT_EQ(engine::recoverRuns(project.folder).recovered.size(), size_t{1});
  const auto run = engine::RunCatalogue(project.folder).run(5);
  EXPECT(run.has_value());
  EXPECT(engine::isImportedRun(*run));
  EXPECT_EQ(engine::importedRunSource(*run), std::string("/data/lm.pt"));
  EXPECT_EQ(run->name, std::string("imported lm.pt"));
}
