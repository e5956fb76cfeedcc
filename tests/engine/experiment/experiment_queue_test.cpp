// The queue's parts that need no training: its ledger in the run store, how it meets a
// changed experiment, successive halving's decisions, where a trial's child starts, the
// results tables, and child processes. tests/cli/experiment_life.sh runs whole queues.
#include <signal.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "engine/config/project_file.h"
#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/io/checkpoint_envelope.h"
#include "engine/runtime/child_handle.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "experiment_fixture.h"
#include "store_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using engine::ExperimentLedger;
using engine::TrialStatus;
using test::addRun;
using test::planIn;
using test::ScratchFolder;

namespace {

constexpr const char* kLrGrid = R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002, 0.003, 0.004]
)";

}  // namespace

MRNN_TEST(the_ledger_keeps_trials_in_the_run_store) {
  ScratchFolder folder;
  {
    ExperimentLedger ledger(folder.path());
    engine::TrialRecord trial;
    trial.experiment = "e";
    trial.trial = 1;
    trial.label = "lr=0.1";
    trial.fingerprint = "abc";
    trial.budget = 20;
    ledger.put(trial);
    ledger.setRun("e", 1, 7);
    ledger.setStatus("e", 1, TrialStatus::Failed, "loss is NaN");
    EXPECT_THROWS_WITH(engine::StoreError, ledger.setRun("e", 5, 1), "has no trial 5");
  }
  const ExperimentLedger reader(folder.path(), ExperimentLedger::Access::ReadOnly);
  const auto trials = reader.trials("e");
  EXPECT_EQ(trials.size(), size_t{1});
  EXPECT_EQ(trials[0].runId, int64_t{7});
  EXPECT(trials[0].status == TrialStatus::Failed);
  EXPECT_EQ(trials[0].reason, std::string("loss is NaN"));
  EXPECT_EQ(trials[0].budget, int64_t{20});
  EXPECT(reader.trials("other").empty());
  // The run tables are still the run store's: it opens the same file.
  EXPECT(engine::RunCatalogue(folder.path()).runs().empty());
  // A project that never ran an experiment (or never ran at all) reads as no trials.
  ScratchFolder empty;
  EXPECT(ExperimentLedger(empty.path(), ExperimentLedger::Access::ReadOnly).trials("e").empty());
  EXPECT(!std::filesystem::exists(empty.file("runs.sqlite")));
}

MRNN_TEST(a_changed_experiment_is_refused_until_replanned) {
  ScratchFolder folder;
  const auto first = planIn(folder, kLrGrid);
  ExperimentLedger ledger(folder.path());
  engine::syncLedger(first, ledger, false);
  EXPECT_EQ(ledger.trials("e").size(), size_t{4});
  ledger.setStatus("e", 0, TrialStatus::Done);
  ledger.setRun("e", 0, 1);
  // Syncing the same plan again changes nothing.
  engine::syncLedger(first, ledger, false);
  EXPECT(ledger.trials("e")[0].status == TrialStatus::Done);
  // The first value changes: trial 1 ran with the old one.
  const auto changed = planIn(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.005, 0.002, 0.003]
)");
  EXPECT_THROWS_WITH(engine::ExperimentChangedError, engine::syncLedger(changed, ledger, false),
                     "trial #1 (lr=0.001)", "done, run 1", "--replan");
  EXPECT_EQ(ledger.trials("e").size(), size_t{4});  // refused: nothing changed
  // Until replanned, the table does not show trial 1's run under the new value.
  const auto table = engine::experimentResults(changed, ledger.trials("e"), {});
  EXPECT_EQ(table[0].label, std::string("lr=0.005"));
  EXPECT_EQ(table[0].done, int64_t{0});
  EXPECT_MSG(table[0].state.find("--replan") != std::string::npos, table[0].state);
  // Replanned: the run of the earlier plan says so, for it keeps the trial's name.
  engine::RunStore store(engine::RunPaths::database(folder.path()));
  engine::RunRecord earlier;
  earlier.name = "e #1: lr=0.001";
  const int64_t earlierId = store.createRun(earlier);
  ledger.setRun("e", 0, earlierId);
  engine::syncLedger(changed, ledger, true, &store);
  const auto noted = store.run(earlierId);
  EXPECT(noted.has_value());
  EXPECT_MSG(
      noted->note.find("ran with an earlier plan of experiment 'e' (trial #1 (lr=0.001)") == 0,
      noted->note);
  const auto rows = ledger.trials("e");
  EXPECT_EQ(rows.size(), size_t{3});
  EXPECT(rows[0].status == TrialStatus::Queued);
  EXPECT_EQ(rows[0].runId, int64_t{0});
  EXPECT_EQ(rows[0].label, std::string("lr=0.005"));
}

MRNN_TEST(lost_queue_records_are_recovered_from_the_runs_not_trained_again) {
  ScratchFolder folder;
  const auto plan = planIn(folder, kLrGrid);
  engine::RunCatalogue catalogue(folder.path(), engine::RunCatalogue::Access::ReadWrite);
  // Trials 1 and 2 ran (1 finished, 2 was stopped); then the queue's table was dropped.
  std::vector<int64_t> ids;
  for (const auto status : {engine::RunStatus::Finished, engine::RunStatus::Stopped}) {
    engine::RunRecord record;
    record.name = plan.trials[ids.size()].project.name;
    ids.push_back(catalogue.store().createRun(record));
    catalogue.store().setStatus(ids.back(), status);
  }
  ExperimentLedger ledger(folder.path());
  EXPECT_EQ(engine::recoverTrialsFromRuns(plan, ledger, catalogue.runs()), int64_t{2});
  engine::syncLedger(plan, ledger, false);
  const auto rows = ledger.trials("e");
  EXPECT_EQ(rows.size(), size_t{4});
  EXPECT(rows[0].status == TrialStatus::Done);
  EXPECT_EQ(rows[0].runId, ids[0]);
  EXPECT(rows[1].status == TrialStatus::Queued);  // resumes its run
  EXPECT_EQ(rows[1].runId, ids[1]);
  EXPECT_EQ(rows[2].runId, int64_t{0});
  // With records present, nothing is recovered twice.
  EXPECT_EQ(engine::recoverTrialsFromRuns(plan, ledger, catalogue.runs()), int64_t{0});
}

MRNN_TEST(queued_trials_follow_the_file_without_a_replan) {
  ScratchFolder folder;
  ExperimentLedger ledger(folder.path());
  engine::syncLedger(planIn(folder, kLrGrid), ledger, false);
  engine::syncLedger(planIn(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.01, 0.02]
)"),
                     ledger, false);
  const auto rows = ledger.trials("e");
  EXPECT_EQ(rows.size(), size_t{2});
  EXPECT_EQ(rows[1].label, std::string("lr=0.02"));
}

MRNN_TEST(successive_halving_keeps_the_best_and_cuts_the_rest) {
  ScratchFolder folder;
  const auto plan = planIn(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002, 0.003, 0.004]
  search: {kind: halving, rungs: [10, 40], keep: 0.5}
  seeds: [1, 2]
)");
  EXPECT_EQ(plan.trials.size(), size_t{8});
  ExperimentLedger ledger(folder.path());
  engine::syncLedger(plan, ledger, false);
  for (const auto& row : ledger.trials("e")) EXPECT_EQ(row.budget, int64_t{10});
  engine::RunCatalogue catalogue(folder.path(), engine::RunCatalogue::Access::ReadWrite);
  // Mean validation per configuration: 3.0, 2.0, 4.0, 1.5 (configuration 2's seeds: 1.0, 3.0).
  const double valid[8] = {3.0, 3.0, 1.0, 3.0, 4.0, 4.0, 1.5, 1.5};
  for (int64_t t = 0; t < 8; ++t) {
    ledger.setRun("e", t, addRun(catalogue, engine::RunStatus::Stopped, valid[t], 10));
    if (t != 5) ledger.setStatus("e", t, TrialStatus::Done);
  }
  // One trial still trains at the first rung: nothing is decided yet.
  EXPECT(!engine::promoteAtRungs(plan, ledger, catalogue.runs()));
  ledger.setStatus("e", 5, TrialStatus::Done);
  EXPECT(engine::promoteAtRungs(plan, ledger, catalogue.runs()));
  const auto rows = ledger.trials("e");
  for (const int64_t kept : {2, 3, 6, 7}) {
    EXPECT(rows[static_cast<size_t>(kept)].status == TrialStatus::Queued);
    EXPECT_EQ(rows[static_cast<size_t>(kept)].rung, int64_t{1});
    EXPECT_EQ(rows[static_cast<size_t>(kept)].budget, int64_t{40});
  }
  for (const int64_t cut : {0, 1, 4, 5}) {
    EXPECT(rows[static_cast<size_t>(cut)].status == TrialStatus::Cut);
  }
  EXPECT_EQ(rows[4].reason,
            std::string("cut at step 10: validation 4.0000 bits, rank 4 of 4 (kept 2)"));
  // The last rung decides nothing more.
  for (const int64_t kept : {2, 3, 6, 7}) ledger.setStatus("e", kept, TrialStatus::Done);
  EXPECT(!engine::promoteAtRungs(plan, ledger, catalogue.runs()));
}

MRNN_TEST(a_trial_child_continues_its_run_or_knows_it_is_done) {
  ScratchFolder folder;
  engine::RunCatalogue catalogue(folder.path(), engine::RunCatalogue::Access::ReadWrite);
  engine::TrialRecord trial;
  trial.experiment = "e";
  // No run yet: a new one.
  EXPECT(!engine::decideTrialStart(folder.path(), trial).alreadyDone);
  EXPECT(engine::decideTrialStart(folder.path(), trial).resumeFrom.empty());
  // Finished: done.
  trial.runId = addRun(catalogue, engine::RunStatus::Finished, 2.0, 40);
  EXPECT(engine::decideTrialStart(folder.path(), trial).alreadyDone);
  // Stopped at its rung's budget: done; below it, resumed from its latest checkpoint.
  trial.runId = addRun(catalogue, engine::RunStatus::Stopped, 2.0, 10);
  trial.budget = 10;
  EXPECT(engine::decideTrialStart(folder.path(), trial).alreadyDone);
  trial.budget = 40;
  const std::string latest = engine::RunPaths::latest(folder.path(), trial.runId);
  std::filesystem::create_directories(std::filesystem::path(latest).parent_path());
  std::ofstream(latest) << engine::sealCheckpoint("checkpoint");
  catalogue.store().recordCheckpoint(
      trial.runId,
      {"latest", "checkpoints/run-" + std::to_string(trial.runId) + "/latest.pt", 10, 2.0, ""});
  const auto start = engine::decideTrialStart(folder.path(), trial);
  EXPECT(!start.alreadyDone);
  EXPECT_EQ(start.resumeFrom, latest);
  // Its latest damaged: its best, whole, is resumed from instead; neither whole: a new run.
  std::ofstream(latest) << "damaged";
  const std::string best = engine::RunPaths::best(folder.path(), trial.runId);
  std::ofstream(best) << engine::sealCheckpoint("best");
  EXPECT_EQ(engine::decideTrialStart(folder.path(), trial).resumeFrom, best);
  std::ofstream(best) << "damaged too";
  EXPECT(engine::decideTrialStart(folder.path(), trial).resumeFrom.empty());
  // Killed before its first checkpoint: a new run.
  trial.runId = addRun(catalogue, engine::RunStatus::Running, 2.0, 3);
  EXPECT(engine::decideTrialStart(folder.path(), trial).resumeFrom.empty());
}

// Deleting a trial's run (the Runs panel's Delete) left the experiment claiming it: "Seeds 2/2",
// one value without its spread, "4 of 4 done". The trial waits in the queue again, and the
// results count what exists; each seed's figure is kept for the plots' per-seed points.
MRNN_TEST(a_trial_whose_run_is_deleted_waits_again_and_the_results_count_what_exists) {
  ScratchFolder folder;
  const auto plan = planIn(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002]
  seeds: [1, 2]
)");
  ExperimentLedger ledger(folder.path());
  engine::syncLedger(plan, ledger, false);
  engine::RunCatalogue catalogue(folder.path(), engine::RunCatalogue::Access::ReadWrite);
  const double valid[4] = {2.0, 2.2, 1.0, 1.4};
  int64_t runs[4] = {0, 0, 0, 0};
  for (int64_t t = 0; t < 4; ++t) {
    runs[t] = addRun(catalogue, engine::RunStatus::Finished, valid[t], 40, valid[t] + 0.1);
    ledger.setRun("e", t, runs[t]);
    ledger.setStatus("e", t, TrialStatus::Done);
  }
  auto rows = engine::experimentResults(plan, ledger.trials("e"), catalogue.runs());
  EXPECT_EQ(rows[1].state, std::string("done"));
  EXPECT(rows[0].validLoss.values == (std::vector<double>{2.0, 2.2}));

  EXPECT_EQ(ledger.trialsOfRun(runs[3]).size(), size_t{1});
  catalogue.deleteRun(runs[3]);
  const auto trial = ledger.trial("e", 3);
  EXPECT(trial && trial->status == TrialStatus::Queued && trial->runId == 0);
  EXPECT_MSG(trial && trial->reason.find("was deleted") != std::string::npos,
             (trial ? trial->reason : std::string("no trial")));
  EXPECT(ledger.trialsOfRun(runs[3]).empty());
  rows = engine::experimentResults(plan, ledger.trials("e"), catalogue.runs());
  EXPECT_EQ(rows[1].done, int64_t{1});
  EXPECT_EQ(rows[1].validLoss.count, int64_t{1});
  EXPECT_EQ(rows[1].state, std::string("1 of 2 done"));

  // A run gone by other means (its row removed by hand): its done trial counts no result.
  engine::RunStore(engine::RunPaths::database(folder.path())).deleteRun(runs[2]);
  rows = engine::experimentResults(plan, ledger.trials("e"), catalogue.runs());
  EXPECT_EQ(rows[1].done, int64_t{0});
  EXPECT_EQ(rows[1].validLoss.count, int64_t{0});
  EXPECT_MSG(rows[1].state.find("1 run(s) deleted") != std::string::npos, rows[1].state);
}

MRNN_TEST(results_give_mean_and_spread_over_seeds_with_references) {
  ScratchFolder folder;
  const auto plan = planIn(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002]
  seeds: [1, 2]
  references:
    - when:
        training.optimizer.lr: 0.002
      metric: test_bpc
      value: 1.5
      source: "Paper, Table 2"
)");
  ExperimentLedger ledger(folder.path());
  engine::syncLedger(plan, ledger, false);
  engine::RunCatalogue catalogue(folder.path(), engine::RunCatalogue::Access::ReadWrite);
  const double valid[4] = {2.0, 2.2, 1.0, 1.4};
  for (int64_t t = 0; t < 4; ++t) {
    ledger.setRun("e", t,
                  addRun(catalogue, engine::RunStatus::Finished, valid[t], 40, valid[t] + 0.1));
    if (t != 1) ledger.setStatus("e", t, TrialStatus::Done);
  }
  const auto rows = engine::experimentResults(plan, ledger.trials("e"), catalogue.runs());
  EXPECT_EQ(rows.size(), size_t{2});
  // Trial 2 is not done: its figure is not a result yet.
  EXPECT_EQ(rows[0].validLoss.count, int64_t{1});
  EXPECT_EQ(rows[0].state, std::string("1 of 2 done"));
  EXPECT_EQ(rows[1].validLoss.count, int64_t{2});
  EXPECT_NEAR(rows[1].validLoss.mean, 1.2, 1e-12);
  EXPECT_NEAR(rows[1].validLoss.stddev, std::sqrt(0.08), 1e-12);
  EXPECT_NEAR(rows[1].testLoss.mean, 1.3, 1e-12);
  EXPECT(rows[0].references.empty());
  EXPECT_EQ(rows[1].references.size(), size_t{1});
  EXPECT_EQ(rows[1].references[0].source, std::string("Paper, Table 2"));
  const auto perplexity = engine::measuredFigure(rows[1], "test_perplexity");
  EXPECT(perplexity.has_value());
  EXPECT_NEAR(perplexity->mean, std::pow(2.0, 1.3), 1e-9);
  const std::string text = engine::resultsText(plan, rows);
  EXPECT(text.find("1.2000 ± 0.2828") != std::string::npos);
  EXPECT(text.find("test_bpc 1.5 (Paper, Table 2)") != std::string::npos);
  const std::string csv = engine::resultsCsv(plan, rows);
  EXPECT(csv.find("2,0.002,") != std::string::npos);
  EXPECT(csv.find("\"Paper, Table 2\"") != std::string::npos);
  const std::string json = engine::resultsJson(plan, rows);
  EXPECT(json.find("\"measured\": 1.3") != std::string::npos);
  // A done trial whose run ended no better than a uniform guess says so in `status`.
  catalogue.store().setStatus(ledger.trial("e", 0)->runId, engine::RunStatus::Finished,
                              "the run ended at 9.00 bits/symbol, worse than a uniform guess");
  const std::string progress =
      engine::progressText(engine::experimentProgress(ledger.trials("e"), catalogue.runs()));
  EXPECT_MSG(progress.find("worse than a uniform guess") != std::string::npos, progress);
}

MRNN_TEST(a_real_valued_outputs_results_are_squared_errors_not_bits) {
  // The store keeps every figure in bits (nats / ln 2); the addition problem's loss is a
  // squared error, which the tables must give back as itself.
  ScratchFolder folder;
  const auto plan = planIn(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002]
  seeds: [1]
)",
                           R"(name: base
model:
  input: {level: word, embedding_size: 0, values: 1}
  layers:
    - {type: rnn, hidden_size: 8}
  output: {type: linear}
data:
  synthetic: addition
  problem: {length: 20, train: 100, valid: 10, test: 10}
training:
  max_steps: 40
  optimizer: {type: adam, lr: 0.001}
)");
  ExperimentLedger ledger(folder.path());
  engine::syncLedger(plan, ledger, false);
  engine::RunCatalogue catalogue(folder.path(), engine::RunCatalogue::Access::ReadWrite);
  const double ln2 = std::log(2.0);
  for (int64_t t = 0; t < 2; ++t) {
    const int64_t id = addRun(catalogue, engine::RunStatus::Finished, 0.02 / ln2, 40, 0.03 / ln2);
    catalogue.store().setConfig(id, engine::projectToYaml(plan.trials[t].project));
    ledger.setRun("e", t, id);
    ledger.setStatus("e", t, TrialStatus::Done);
  }
  const auto rows = engine::experimentResults(plan, ledger.trials("e"), catalogue.runs());
  EXPECT(rows[0].unit == engine::LossUnit::SquaredError);
  EXPECT_NEAR(rows[0].validLoss.mean, 0.02, 1e-12);
  EXPECT_NEAR(rows[1].testLoss.mean, 0.03, 1e-12);
  EXPECT(!engine::measuredFigure(rows[0], "valid_perplexity").has_value());
  const std::string text = engine::resultsText(plan, rows);
  EXPECT_MSG(text.find("mean squared error, mean ± std") != std::string::npos, text);
  EXPECT_MSG(text.find("valid sq. error") != std::string::npos, text);
  EXPECT_MSG(text.find("0.0200") != std::string::npos, text);
  EXPECT_MSG(text.find("bpc") == std::string::npos && text.find("0.0289") == std::string::npos,
             text);
  const std::string csv = engine::resultsCsv(plan, rows);
  EXPECT_MSG(
      csv.find(",valid_sq_error_mean,valid_sq_error_std,test_sq_error_mean,") != std::string::npos,
      csv);
  EXPECT_MSG(csv.find(",0.02,") != std::string::npos, csv);
  const std::string json = engine::resultsJson(plan, rows);
  EXPECT_MSG(json.find("\"valid_squared_error\": {\"mean\": 0.02") != std::string::npos, json);
  const std::string progress =
      engine::progressText(engine::experimentProgress(ledger.trials("e"), catalogue.runs()));
  EXPECT_MSG(progress.find("valid sq. error") != std::string::npos, progress);
  EXPECT_MSG(progress.find("0.0200") != std::string::npos, progress);
  // The queue's line when a trial ends says it the same way.
  std::string said;
  std::map<int64_t, int> kills;
  engine::recordTrialExit(plan, ledger, catalogue, 0, 0, false, kills,
                          [&said](const std::string& line) { said = line; });
  EXPECT_MSG(said.find("validation 0.0200 squared error, test 0.0300") != std::string::npos, said);
}

MRNN_TEST(a_long_range_problems_results_give_the_share_wrong_and_the_seeds_that_solved_it) {
  // Martens & Sutskever's success rate: a loss alone does not say which seeds solved the
  // problem; the run's last test error rate does.
  ScratchFolder folder;
  const auto plan = planIn(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002]
  seeds: [1, 2]
  claims:
    - better: {training.optimizer.lr: 0.001}
      worse: {training.optimizer.lr: 0.002}
      metric: test_error_rate
      source: "a test"
)",
                           R"(name: base
model:
  input: {level: word, embedding_size: 0}
  layers:
    - {type: rnn, hidden_size: 8}
data:
  synthetic: temporal_order_2bit
  problem: {length: 20, train: 100, valid: 10, test: 10}
training:
  max_steps: 40
  optimizer: {type: adam, lr: 0.001}
)");
  ExperimentLedger ledger(folder.path());
  engine::syncLedger(plan, ledger, false);
  engine::RunCatalogue catalogue(folder.path(), engine::RunCatalogue::Access::ReadWrite);
  // Trials 0 and 1 are the first configuration's seeds, 2 and 3 the second's.
  const double wrong[4] = {0.0, 0.005, 0.5, 0.004};
  for (int64_t t = 0; t < 4; ++t) {
    const int64_t id = addRun(catalogue, engine::RunStatus::Finished, 0.1, 40, 0.1);
    // An earlier test (a run resumed and tested again) is not its figure: the last one is.
    catalogue.store().appendMetrics(id, {{engine::metric::kTestErrorRate, 10, 0.0, 1.0, 0.9},
                                         {engine::metric::kTestErrorRate, 40, 0.0, 2.0, wrong[t]}});
    ledger.setRun("e", t, id);
    ledger.setStatus("e", t, TrialStatus::Done);
  }
  const auto runs = catalogue.runs();
  EXPECT(runs.front().testErrorRate.has_value());
  EXPECT_NEAR(*runs.front().testErrorRate, 0.0, 1e-12);
  const auto rows = engine::experimentResults(plan, ledger.trials("e"), runs);
  EXPECT(rows[0].scoresSequences && rows[1].scoresSequences);
  EXPECT_EQ(rows[0].solved, int64_t{2});
  EXPECT_EQ(rows[1].solved, int64_t{1});
  EXPECT_NEAR(rows[1].testErrorRate.mean, 0.252, 1e-12);
  EXPECT_EQ(engine::solvedText(rows[1]), std::string("1/2"));
  const auto figure = engine::measuredFigure(rows[0], "test_error_rate");
  EXPECT(figure.has_value() && figure->count == 2);
  const std::string text = engine::resultsText(plan, rows);
  EXPECT_MSG(text.find("test wrong") != std::string::npos, text);
  EXPECT_MSG(text.find("25.2% ± 35.1%") != std::string::npos, text);
  EXPECT_MSG(text.find("1/2") != std::string::npos && text.find("2/2") != std::string::npos, text);
  EXPECT_MSG(text.find("in test_error_rate (a test)") != std::string::npos, text);
  EXPECT_MSG(text.find("0.0025 ± 0.0035 (2 seeds) against 0.2520") != std::string::npos, text);
  const std::string csv = engine::resultsCsv(plan, rows);
  EXPECT_MSG(csv.find(",test_error_rate_mean,test_error_rate_std,solved,") != std::string::npos,
             csv);
  EXPECT_MSG(csv.find(",0.252,") != std::string::npos, csv);
  const std::string json = engine::resultsJson(plan, rows);
  EXPECT_MSG(json.find("\"test_error_rate\": {\"mean\": 0.0025") != std::string::npos, json);
  EXPECT_MSG(json.find("\"solved\": 1") != std::string::npos, json);
  // The queue's line when a trial ends says whether it solved the problem.
  std::string said;
  std::map<int64_t, int> kills;
  const auto log = [&said](const std::string& line) { said = line; };
  engine::recordTrialExit(plan, ledger, catalogue, 2, 0, false, kills, log);
  EXPECT_MSG(said.find(", 50.0% of the test sequences wrong") != std::string::npos, said);
  EXPECT_MSG(said.find("solved") == std::string::npos, said);
  engine::recordTrialExit(plan, ledger, catalogue, 0, 0, false, kills, log);
  EXPECT_MSG(said.find(", 0.0% of the test sequences wrong (solved)") != std::string::npos, said);
  // Tables of language models keep their columns.
  ScratchFolder text8;
  const auto lm = planIn(text8, kLrGrid);
  const std::string plain = engine::resultsText(lm, engine::experimentResults(lm, {}, {}));
  EXPECT_MSG(plain.find("test wrong") == std::string::npos, plain);
  EXPECT(engine::resultsCsv(lm, engine::experimentResults(lm, {}, {})).find("solved") ==
         std::string::npos);
}

MRNN_TEST(a_trials_status_says_what_the_queue_is_doing) {
  const auto trialAt = [](int64_t index, engine::TrialStatus status, int64_t runId) {
    engine::TrialRecord trial;
    trial.trial = index;
    trial.status = status;
    trial.runId = runId;
    return trial;
  };
  const auto runAt = [](int64_t id, int64_t steps) {
    engine::RunRecord run;
    run.id = id;
    run.steps = steps;
    run.durationSeconds = steps * 0.5;
    run.configYaml = "training:\n  max_steps: 150\n";
    return run;
  };
  const std::vector<engine::TrialRecord> trials{
      trialAt(0, engine::TrialStatus::Running, 0),   // just launched: no process holds it yet
      trialAt(1, engine::TrialStatus::Queued, 11),   // Stop left it at step 57
      trialAt(2, engine::TrialStatus::Running, 12),  // past its last step: validating
      trialAt(3, engine::TrialStatus::Running, 13),  // training
      trialAt(4, engine::TrialStatus::Queued, 0)};   // not begun
  const std::vector<engine::RunRecord> runs{runAt(11, 57), runAt(12, 150), runAt(13, 30)};
  const auto trainedNow = [](int64_t trial) { return trial == 2 || trial == 3; };

  auto rows = engine::experimentProgress(trials, runs, trainedNow, /*queueRunning=*/true);
  EXPECT_EQ(rows[0].statusText(), std::string("starting"));
  EXPECT_EQ(rows[1].statusText(), std::string("stopped"));
  EXPECT_EQ(rows[2].statusText(), std::string("running"));
  EXPECT_EQ(rows[2].etaText(), std::string("validating"));
  EXPECT_EQ(rows[3].statusText(), std::string("running"));
  EXPECT(rows[3].etaSeconds.has_value());
  EXPECT_NEAR(*rows[3].etaSeconds, 60.0, 1e-9);
  EXPECT_EQ(rows[4].statusText(), std::string("queued"));
  const std::string text = engine::progressText(rows);
  EXPECT_MSG(text.find("validating") != std::string::npos, text);

  // With the queue gone, a running trial nobody trains was interrupted.
  rows = engine::experimentProgress(trials, runs, trainedNow, /*queueRunning=*/false);
  EXPECT_EQ(rows[0].statusText(), std::string("interrupted"));

  // A trial limited by time (training.max_seconds) ends when its time is up, however many
  // steps it was allowed: 60 s in of 240, not 1,249 hours for 10⁸ steps.
  engine::RunRecord timed = runAt(13, 878);
  timed.durationSeconds = 60.0;
  timed.configYaml = "training:\n  max_steps: 100000000\n  max_seconds: 240\n  validate_every: 5\n";
  EXPECT_NEAR(engine::recordedMaxSeconds(timed), 240.0, 1e-12);
  rows = engine::experimentProgress(trials, {timed}, trainedNow, true);
  EXPECT(rows[3].etaSeconds.has_value());
  EXPECT_NEAR(*rows[3].etaSeconds, 180.0, 1e-9);
  timed.configYaml = "training:\n  max_steps: 100000000\n  max_seconds: 0\n";
  EXPECT_NEAR(engine::recordedMaxSeconds(timed), 0.0, 1e-12);
}

MRNN_TEST(slots_never_oversubscribe_the_cores) {
  engine::Experiment experiment;
  auto slots = engine::chooseSlots(experiment, 4, 2);
  EXPECT_EQ(slots.count, int64_t{2});
  EXPECT_EQ(slots.threads, int64_t{1});
  slots = engine::chooseSlots(experiment, 1, 8);
  EXPECT_EQ(slots.count, int64_t{1});
  EXPECT_EQ(slots.threads, int64_t{8});
  experiment.slotCount = 3;
  slots = engine::chooseSlots(experiment, 10, 12);
  EXPECT_EQ(slots.threads, int64_t{4});
  slots = engine::chooseSlots(experiment, 10, 12, 2, 1);
  EXPECT_EQ(slots.count, int64_t{2});
  EXPECT_EQ(slots.threads, int64_t{1});
}

MRNN_TEST(a_child_process_logs_and_reports_how_it_ended) {
  ScratchFolder folder;
  const std::string log = folder.file("child.log");
  auto child =
      engine::ChildHandle::start({"/bin/sh", "-c", "echo hello; echo oops >&2; exit 3"}, log);
  EXPECT_EQ(child.wait(), 3);
  std::ifstream in(log);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all, std::string("hello\noops\n"));
  auto sleeper = engine::ChildHandle::start({"/bin/sleep", "30"}, log);
  EXPECT(!sleeper.poll().has_value());
  sleeper.signal(SIGTERM);
  EXPECT_EQ(sleeper.wait(), 128 + SIGTERM);
  EXPECT_THROWS_WITH(std::runtime_error, engine::ChildHandle::start({"/nonexistent/mrnn"}, log),
                     "/nonexistent/mrnn");
}

MRNN_TEST(trials_on_cuda_run_one_per_gpu) {
  engine::Experiment experiment;
  const auto slots = engine::chooseSlots(experiment, 8, 16, 0, 0, 2);
  EXPECT_EQ(slots.count, int64_t{2});
  EXPECT_EQ(slots.threads, int64_t{8});
}
