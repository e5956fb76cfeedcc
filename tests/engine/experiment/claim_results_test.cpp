// A paper's claimed ordering tested on an experiment's seeds: the claims of the experiment
// file, each side selecting one configuration, Welch's t-test one-sided on the claimed
// direction, and the verdicts `mrnn experiment table` prints.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/config/config_error.h"
#include "engine/experiment/claim_results.h"
#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_catalogue.h"
#include "experiment_fixture.h"
#include "test_harness.h"

using namespace mrnn;
using engine::ClaimResult;
using engine::ConfigError;
using test::addRun;
using test::planIn;
using test::ScratchFolder;

namespace {

// Three learning rates, three seeds each, and the claims given.
std::string experimentWith(const std::string& claims) {
  return R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002, 0.003]
  seeds: [1, 2, 3]
  claims:
)" + claims;
}

std::string claim(const std::string& better, const std::string& worse,
                  const std::string& metric = "test_bpc") {
  return "    - better: {training.optimizer.lr: " + better +
         "}\n      worse: {training.optimizer.lr: " + worse + "}\n      metric: " + metric +
         "\n      source: \"Paper, Table 1\"\n";
}

// Each trial done with the test figure given (trial order: lr-major, seeds inside).
std::vector<engine::ConfigurationResult> resultsWith(const ScratchFolder& folder,
                                                     const engine::ExperimentPlan& plan,
                                                     const std::vector<double>& tests,
                                                     size_t done) {
  engine::ExperimentLedger ledger(folder.path());
  engine::syncLedger(plan, ledger, false);
  engine::RunCatalogue catalogue(folder.path(), engine::RunCatalogue::Access::ReadWrite);
  for (size_t t = 0; t < done; ++t) {
    const int64_t id = addRun(catalogue, engine::RunStatus::Finished, tests[t], 40, tests[t]);
    ledger.setRun("e", static_cast<int64_t>(t), id);
    ledger.setStatus("e", static_cast<int64_t>(t), engine::TrialStatus::Done);
  }
  return engine::experimentResults(plan, ledger.trials("e"), catalogue.runs());
}

}  // namespace

MRNN_TEST(a_claim_is_tested_one_sided_by_welch_on_the_seeds) {
  ScratchFolder folder;
  const auto plan = planIn(
      folder, experimentWith(claim("0.001", "0.002") + claim("0.003", "0.001") +
                             claim("0.002", "0.003") + claim("0.001", "0.002", "test_perplexity")));
  EXPECT_EQ(plan.experiment.claims.size(), size_t{4});
  // lr 0.001: 1.0, 1.1, 1.2; lr 0.002: 1.5, 1.6, 1.8; lr 0.003: 1.6, 1.7, 1.68.
  const std::vector<double> tests{1.0, 1.1, 1.2, 1.5, 1.6, 1.8, 1.6, 1.7, 1.68};
  const auto rows = resultsWith(folder, plan, tests, tests.size());
  const auto claims = engine::claimResults(plan, rows);
  EXPECT_EQ(claims.size(), size_t{4});

  // Welch's t by hand: means 1.1 and 1.6333..., sample variances 0.01 and 0.02333...
  const double se2a = 0.01 / 3.0;
  const double se2b = (0.1600 / 9.0 + 0.0100 / 9.0 + 0.2500 / 9.0) / 2.0 / 3.0;
  const double t = (1.1 - 4.9 / 3.0) / std::sqrt(se2a + se2b);
  const double dof = (se2a + se2b) * (se2a + se2b) / (se2a * se2a / 2.0 + se2b * se2b / 2.0);
  const ClaimResult& holds = claims[0];
  EXPECT_EQ(holds.verdictText(), std::string("holds"));
  EXPECT(holds.test.has_value());
  EXPECT_NEAR(holds.test->t, t, 1e-9);
  EXPECT_NEAR(holds.test->degreesOfFreedom, dof, 1e-9);
  EXPECT_NEAR(holds.oneSidedP, engine::studentTwoSidedP(t, dof) / 2.0, 1e-12);
  EXPECT(holds.oneSidedP < 0.05);
  EXPECT_NEAR(holds.better.mean, 1.1, 1e-12);
  EXPECT_EQ(holds.betterLabel, std::string("lr=0.001"));

  // The other way round: the claimed side is the higher one.
  const ClaimResult& reversed = claims[1];
  EXPECT_EQ(reversed.verdictText(), std::string("reversed"));
  EXPECT(reversed.oneSidedP > 0.95);

  // Lower in the means, by less than the seeds spread.
  const ClaimResult& weak = claims[2];
  EXPECT_EQ(weak.verdictText(), std::string("holds in the means, not significant"));
  EXPECT(weak.better.mean < weak.worse.mean && weak.oneSidedP >= 0.05 && weak.oneSidedP < 0.5);

  // Perplexity: each seed's 2^bits, tested as they are.
  const ClaimResult& perplexity = claims[3];
  EXPECT_NEAR(perplexity.better.values[1], std::pow(2.0, 1.1), 1e-9);
  EXPECT_EQ(perplexity.verdictText(), std::string("holds"));

  const std::string text = engine::resultsText(plan, rows);
  EXPECT_MSG(text.find("1. lr=0.001 below lr=0.002 in test_bpc (Paper, Table 1): holds") !=
                 std::string::npos,
             text);
  EXPECT_MSG(
      text.find("1.1000 ± 0.1000 (3 seeds) against 1.6333 ± 0.1528 (3 seeds)") != std::string::npos,
      text);
  EXPECT_MSG(text.find("2. lr=0.003 below lr=0.001 in test_bpc (Paper, Table 1): reversed") !=
                 std::string::npos,
             text);
  EXPECT_MSG(text.find("holds in the means, not significant") != std::string::npos, text);
  const std::string json = engine::resultsJson(plan, rows);
  EXPECT_MSG(json.find("\"claims\": [{\"better\": \"lr=0.001\"") != std::string::npos, json);
  EXPECT_MSG(json.find("\"verdict\": \"reversed\"") != std::string::npos, json);
}

MRNN_TEST(a_claim_waits_for_both_sides_and_needs_two_seeds_to_test) {
  ScratchFolder folder;
  const auto plan = planIn(folder, experimentWith(claim("0.001", "0.002")));
  const std::vector<double> tests{1.0, 1.1, 1.2, 1.5, 1.6, 1.8, 1.6, 1.7, 1.68};
  // Only the first configuration's seeds are done.
  auto claims = engine::claimResults(plan, resultsWith(folder, plan, tests, 3));
  EXPECT(!claims[0].test.has_value());
  EXPECT_EQ(claims[0].verdictText(), std::string("not measured yet"));
}

MRNN_TEST(a_claim_must_select_one_configuration_on_each_side) {
  ScratchFolder folder;
  EXPECT_THROWS_WITH(ConfigError, planIn(folder, experimentWith(claim("0.001", "0.005"))),
                     "e.yaml:8:14", "experiment.claims[0].worse",
                     "'training.optimizer.lr: 0.005' selects no configuration of the experiment");
  // Two axes: one key alone selects two configurations.
  EXPECT_THROWS_WITH(ConfigError, planIn(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002]
    - key: training.bptt
      values: [10, 20]
  claims:
    - better: {training.optimizer.lr: 0.001, training.bptt: 10}
      worse: {training.optimizer.lr: 0.002}
      metric: test_bpc
      source: "Paper"
)"),
                     "experiment.claims[0].worse",
                     "selects 2 configurations; name one by more keys");
  // The file's own mistakes: the same side twice, no metric, no source, a side not a mapping.
  EXPECT_THROWS_WITH(ConfigError, planIn(folder, experimentWith(claim("0.001", "0.001"))),
                     "experiment.claims[0].worse", "selects the same setting as 'better'");
  EXPECT_THROWS_WITH(ConfigError,
                     planIn(folder, experimentWith(R"(    - better: {training.optimizer.lr: 0.001}
      worse: {training.optimizer.lr: 0.002}
      source: "Paper"
)")),
                     "experiment.claims[0].metric", "missing");
  EXPECT_THROWS_WITH(ConfigError,
                     planIn(folder, experimentWith(R"(    - better: {training.optimizer.lr: 0.001}
      worse: {training.optimizer.lr: 0.002}
      metric: test_bpc
)")),
                     "experiment.claims[0].source", "missing");
  EXPECT_THROWS_WITH(ConfigError, planIn(folder, experimentWith(R"(    - better: mlstm
      worse: {training.optimizer.lr: 0.002}
      metric: test_bpc
      source: "Paper"
)")),
                     "experiment.claims[0].better", "expected a mapping");
}

// Every experiment file shipped under projects/ parses, and each claims recipe (claim.yaml,
// docs/claims.md) plans: three seeds of every configuration, each claim's sides one
// configuration, and every configuration at the same parameter count to within 1%.
MRNN_TEST(the_shipped_claims_recipes_plan_at_equal_parameters) {
  // Planning counts parameters over the recipes' vocabularies, read from the shared corpora.
  for (const char* corpus : {"ptb", "tinyshakespeare"}) {
    const auto folder = std::filesystem::path(MRNN_SHARED_DIR) / "data" / corpus;
    if (!std::filesystem::exists(folder)) MRNN_SKIP("shared corpus not found: " + folder.string());
  }
  size_t experiments = 0;
  size_t recipes = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(MRNN_PROJECTS_DIR)) {
    if (entry.path().parent_path().filename() != "experiments") continue;
    if (entry.path().extension() != ".yaml") continue;
    const auto experiment = engine::loadExperiment(entry.path().string());
    ++experiments;
    if (entry.path().filename() != "claim.yaml") continue;
    ++recipes;
    const auto plan = engine::planExperiment(experiment);
    const std::string name = entry.path().string();
    EXPECT_MSG(!plan.experiment.claims.empty(), name << " states no claim");
    EXPECT_MSG(plan.experiment.seeds.size() == 3,
               name << " has " << plan.experiment.seeds.size() << " seeds");
    EXPECT_EQ(plan.trials.size(), static_cast<size_t>(plan.configurations) * 3);
    int64_t least = plan.trials.front().parameters;
    int64_t most = least;
    for (const auto& trial : plan.trials) {
      least = std::min(least, trial.parameters);
      most = std::max(most, trial.parameters);
    }
    EXPECT_MSG(least > 0 && static_cast<double>(most - least) < 0.01 * static_cast<double>(most),
               name << ": " << least << " to " << most << " parameters");
  }
  EXPECT(experiments >= 20);
  EXPECT_EQ(recipes, size_t{6});
}
