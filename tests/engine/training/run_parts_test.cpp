// The trainer's parts on their own: the validation book's verdicts, and the run's journal,
// which opens the store only when the run is created (a start refused before that leaves the
// project's folder as it was) and writes nothing on a rank other than 0.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "engine/data/long_range_problem.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/training/checkpoint.h"
#include "engine/training/run_journal.h"
#include "engine/training/training_events.h"
#include "engine/training/validation_book.h"
#include "store_fixtures.h"
#include "test_harness.h"
#include "training_fixtures.h"

using namespace mrnn;

MRNN_TEST(the_validation_book_keeps_the_best_and_stops_after_its_patience) {
  engine::ValidationBook book(2, 65);
  book.addStep(3.0, 1.0);
  auto entry = book.record(4.0);
  EXPECT(entry.best && !entry.stop && !entry.note);
  EXPECT_NEAR(book.addValidationSeconds(1.0), 0.5, 1e-12);  // one second of two
  entry = book.record(4.5);
  EXPECT(!entry.best && !entry.stop);
  entry = book.record(3.9);  // better: the count starts again
  EXPECT(entry.best && book.badValidations() == 0);
  book.record(4.0);
  entry = book.record(4.1);
  EXPECT(entry.stop && book.stopped());
  EXPECT_NEAR(book.best(), 3.9, 0.0);
  // Worse than a uniform guess over 65 symbols (6.02 bits) while training read 3: said once.
  engine::ValidationBook once(0, 65);
  once.addStep(3.0, 1.0);
  EXPECT(once.record(12.0).note.has_value());
  once.addStep(3.0, 1.0);
  EXPECT(!once.record(12.0).note.has_value());
  // A resumed run's figures.
  engine::ValidationBook resumed(3, 65);
  resumed.restore(2.5, 2);
  EXPECT(resumed.record(2.6).stop);
}

// A long-range problem keeps the model with the fewest sequences wrong: the random permutation
// problem's bits are mostly its unpredictable symbols, and the model that solved it was once
// tested in place of an earlier one with fewer bits and half the answers wrong.
MRNN_TEST(a_problems_best_model_is_the_one_with_the_fewest_wrong) {
  engine::ValidationBook book(2, 100);
  EXPECT(book.record(6.70, 0.52).best);
  EXPECT(!book.record(6.65, 0.55).best);  // fewer bits, more wrong
  auto solved = book.record(6.72, 0.004);
  EXPECT(solved.best);
  EXPECT_NEAR(book.best(), 6.72, 0.0);
  EXPECT(book.record(6.71, 0.004).best);  // as many wrong: the bits decide
  EXPECT(!book.record(6.60, 0.01).best);
  EXPECT(book.record(6.60, 0.01).stop);  // patience counts the same
  // A resumed run goes on by its best model's error rate, not by the bits alone.
  engine::ValidationBook resumed(0, 100);
  resumed.restore(6.72, 0, 0.004);
  EXPECT(!resumed.record(6.60, 0.01).best);
  EXPECT_NEAR(resumed.bestErrorRate(), 0.004, 0.0);
  // Text (no error rate) by the bits alone, as before.
  engine::ValidationBook text(0, 100);
  text.record(3.0);
  EXPECT(text.record(2.9).best);
}

MRNN_TEST(the_journal_opens_the_store_only_for_the_run_and_only_on_rank_0) {
  test::ScratchProject scratch("run_journal");
  const std::string folder = scratch.folder().string();
  const std::string database = engine::RunPaths::database(folder);
  {
    engine::RunJournal journal(folder, true);
    journal.setStatus(engine::RunStatus::Running);  // no run yet: nothing to write
    journal.fail("refused before the run was made");
    EXPECT(!std::filesystem::exists(database));
  }
  {
    engine::RunJournal silent(folder, false);
    silent.create(scratch.project(10), 100);
    silent.metric({"train/loss", 1, 0.0, 0.1, 2.0});
    silent.flush();
    EXPECT(!silent.writes());
    EXPECT_EQ(silent.runId(), int64_t{0});
    EXPECT(!std::filesystem::exists(database));
  }
  engine::RunJournal journal(folder, true);
  journal.create(scratch.project(10), 100);
  EXPECT(journal.runId() > 0);
  engine::StepEvent step;
  step.step = 1;
  step.loss = 2.0;
  step.bitsPerSymbol = 2.0 / std::log(2.0);
  step.learningRate = 0.01;
  journal.recordStep(step, false);  // a rule without a learning rate records none
  journal.flush();
  journal.fail("the training loss became NaN at step 2");
  const engine::RunCatalogue catalogue(folder);
  const auto run = catalogue.run(journal.runId());
  EXPECT(run.has_value());
  if (!run) return;
  EXPECT(run->status == engine::RunStatus::Failed);
  EXPECT(run->reason.find("NaN at step 2") != std::string::npos);
  const auto names = catalogue.store().metricNames(journal.runId());
  EXPECT(std::find(names.begin(), names.end(), "train/loss") != names.end());
  EXPECT(std::find(names.begin(), names.end(), "lr") == names.end());
}

// The defect: an experiment's trial linked itself to its run as the run started, waiting the
// store's 5 s for a held database (deaf to a stop meanwhile) and failing the trial, its run
// with it, when the database stayed held. The link now waits with the run's other records.
MRNN_TEST(a_trials_link_to_its_run_waits_with_the_runs_records_for_a_held_database) {
  test::ScratchProject scratch("trial_link");
  const std::string folder = scratch.folder().string();
  engine::Project project = scratch.project(10);
  {
    engine::ExperimentLedger ledger(folder);
    engine::TrialRecord trial;
    trial.experiment = "grid";
    trial.trial = 1;
    ledger.put(trial);
  }
  project.trial = engine::TrialOfRun{"grid", 1};
  engine::RunJournal journal(folder, true);
  journal.create(project, 100);
  test::RawDatabase other(engine::RunPaths::database(folder));
  other.execute("BEGIN EXCLUSIVE");
  const auto start = std::chrono::steady_clock::now();
  journal.startRunning();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_MSG(seconds < 1.0, std::to_string(seconds) + " s");
  other.execute("ROLLBACK");
  journal.settle(std::chrono::seconds(10));
  const engine::ExperimentLedger ledger(folder, engine::ExperimentLedger::Access::ReadOnly);
  const auto trial = ledger.trial("grid", 1);
  EXPECT(trial.has_value());
  if (trial) EXPECT_EQ(trial->runId, journal.runId());
}

// The defect: a run stopped while another program held its database past the stop's second
// lost the metrics waiting in memory: resumed, its curves had a gap from the hold to the
// stop. They are kept beside its checkpoints and written when the run is resumed (the points
// past the checkpoint it resumes from are trained again, and go, as always).
MRNN_TEST(metrics_a_held_database_kept_waiting_at_a_stop_are_written_when_the_run_resumes) {
  test::ScratchProject scratch("held_at_stop");
  const std::string folder = scratch.folder().string();
  const engine::Project project = scratch.project(10);
  int64_t id = 0;
  std::string projectId;
  const auto loss = [](int64_t step) {
    return engine::MetricPoint{"train/loss", step, 0.01 * step, 0.5 * step, 4.0 / step};
  };
  {
    engine::RunJournal journal(folder, true);
    journal.create(project, 100);
    journal.startRunning();
    id = journal.runId();
    projectId = journal.projectId();
    for (int64_t step = 1; step <= 5; ++step) journal.metric(loss(step));
    journal.flush();
    test::RawDatabase other(engine::RunPaths::database(folder));
    other.execute("BEGIN EXCLUSIVE");
    for (int64_t step = 6; step <= 10; ++step) journal.metric(loss(step));
    journal.flush();
    journal.setStatus(engine::RunStatus::Stopped, "stopped at step 10");
    journal.settle(std::chrono::milliseconds(300));  // a stop's patience, passed
    other.execute("ROLLBACK");
  }
  const std::string keptFile = engine::RunPaths::unwrittenMetrics(folder, id);
  const std::string keptCopy = (scratch.folder() / "kept-copy.tsv").string();
  std::filesystem::copy_file(keptFile, keptCopy);
  const auto resume = [&] {
    engine::RunJournal resumed(folder, true);
    engine::TrainingSnapshot snapshot;
    snapshot.runId = id;
    snapshot.projectId = projectId;
    const engine::RunRecord record = resumed.reopen(snapshot, engine::RunPaths::latest(folder, id));
    resumed.rewindTo(8, record);  // its checkpoint was at step 8
  };
  const auto expectEightPoints = [&] {
    const engine::RunCatalogue catalogue(folder);
    const auto points = catalogue.store().metrics(id, "train/loss");
    EXPECT_EQ(points.size(), size_t{8});
    for (size_t i = 0; i < points.size(); ++i) {
      EXPECT_EQ(points[i].step, static_cast<int64_t>(i + 1));
      EXPECT_NEAR(points[i].value, 4.0 / static_cast<double>(i + 1), 1e-12);
      EXPECT_NEAR(points[i].wallSeconds, 0.5 * static_cast<double>(i + 1), 1e-12);
    }
  };
  resume();
  expectEightPoints();
  // Written once: nothing is left to write again.
  for (const auto& entry :
       std::filesystem::directory_iterator(engine::RunPaths::checkpointFolder(folder, id))) {
    EXPECT_MSG(entry.path().filename() == "writer.lock", entry.path().string());
  }
  // A crash after they were written and before their file went: the next resume finds the
  // file again, and its points are not drawn twice.
  std::filesystem::copy_file(keptCopy, keptFile);
  resume();
  expectEightPoints();
}

// A validation shows a problem solved when a model that gets exactly 1% wrong would do as well
// at most 5% of the time: a model near 1% once ended its run on 0.8% of 500 validation
// sequences and failed its test with 1.2% of 1,000.
MRNN_TEST(a_validation_shows_a_problem_solved_only_beyond_luck) {
  EXPECT(engine::validationShowsSolved(0.0, engine::kStopWhenSolvedSequences));
  EXPECT(!engine::validationShowsSolved(0.0, engine::kStopWhenSolvedSequences - 1));
  EXPECT(engine::validationShowsSolved(1.0 / 500, 500));
  EXPECT(!engine::validationShowsSolved(2.0 / 500, 500));  // 0.4%: below 1%, within luck
  EXPECT(!engine::validationShowsSolved(4.0 / 500, 500));  // the run that failed its test
  EXPECT(engine::problemSolved(4.0 / 500, 500));           // though its rate is below 1%
  EXPECT(engine::validationShowsSolved(4.0 / 1000, 1000));
  EXPECT(!engine::validationShowsSolved(5.0 / 1000, 1000));
  EXPECT(!engine::validationShowsSolved(-1.0, 1000));  // text: no error rate
}
