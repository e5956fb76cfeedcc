// `mrnn runs list|show|export`, called directly with string streams.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.h"
#include "engine/store/run_store.h"
#include "runs_command.h"
#include "store_fixtures.h"
#include "test_harness.h"

using mrnn::engine::RunStore;
using mrnn::test::ScratchFolder;

namespace {

struct Outcome {
  int code = 0;
  std::string out;
  std::string err;
};

// Runs `mrnn <words...>` as the lead's dispatch will: positional()[0] is "runs".
Outcome runs(std::vector<std::string> words) {
  words.insert(words.begin(), "mrnn");
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  const mrnn::app::CommandLine args(static_cast<int>(argv.size()), argv.data());
  std::ostringstream out;
  std::ostringstream err;
  Outcome outcome;
  outcome.code = mrnn::app::runRunsCommand(args, out, err);
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

// A project folder holding the two-run fixture.
void fillFixture(const ScratchFolder& folder) {
  RunStore store(folder.file("runs.sqlite"));
  mrnn::test::addFixtureRuns(store);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

MRNN_TEST(runs_command_usage_errors_exit_2) {
  ScratchFolder folder;
  fillFixture(folder);
  const std::string dir = folder.path();
  const std::vector<std::vector<std::string>> wrong = {
      {"runs"},
      {"runs", "frobnicate", dir},
      {"runs", "list"},
      {"runs", "list", dir, "extra"},
      {"runs", "list", dir, "--verbose"},
      {"runs", "show", dir},
      {"runs", "show", dir, "one"},
      {"runs", "show", dir, "-3"},
      {"runs", "show", dir, "1x"},
      {"runs", "export", dir},
      {"runs", "export", dir, "--format", "xml"},
      {"runs", "export", dir, "--format", "csv", "--output"},
      {"runs", "export", dir, "1", "2", "--format", "csv"},
  };
  for (const auto& words : wrong) {
    const auto outcome = runs(words);
    std::string line;
    for (const auto& word : words) line += word + " ";
    EXPECT_MSG(outcome.code == 2, line << "-> " << outcome.code << ": " << outcome.err);
    EXPECT_MSG(contains(outcome.err, "usage:"), line << "-> " << outcome.err);
    EXPECT(outcome.out.empty());
  }
  EXPECT(contains(runs({"runs", "export", dir, "--format", "xml"}).err, "unknown format 'xml'"));
  EXPECT(contains(runs({"runs", "list", dir, "--verbose"}).err, "unknown option --verbose"));
}

MRNN_TEST(runs_command_folder_without_database_exits_1) {
  ScratchFolder folder;
  const auto outcome = runs({"runs", "list", folder.path()});
  EXPECT_EQ(outcome.code, 1);
  EXPECT_MSG(contains(outcome.err, "no runs yet in " + folder.path()), outcome.err);
  EXPECT(!std::filesystem::exists(folder.file("runs.sqlite")));  // not created by looking

  const auto missing = runs({"runs", "list", folder.file("no-such-project")});
  EXPECT_EQ(missing.code, 1);
  EXPECT_MSG(contains(missing.err, "no project folder"), missing.err);
  EXPECT_EQ(runs({"runs", "export", folder.path(), "--format", "csv"}).code, 1);
}

MRNN_TEST(runs_command_names_an_empty_or_misplaced_database) {
  ScratchFolder folder;
  folder.write("runs.sqlite", "");  // emptied by a full disk or a careless redirect
  const auto empty = runs({"runs", "list", folder.path()});
  EXPECT_EQ(empty.code, 1);
  EXPECT_MSG(contains(empty.err, "runs.sqlite' is empty (0 bytes)"), empty.err);
  EXPECT_MSG(contains(empty.err, "--set-aside"), empty.err);  // its runs' way back
  std::filesystem::remove(folder.file("runs.sqlite"));
  std::filesystem::create_directories(folder.file("runs.sqlite"));
  const auto folderInPlace = runs({"runs", "list", folder.path()});
  EXPECT_EQ(folderInPlace.code, 1);
  EXPECT_MSG(contains(folderInPlace.err, "runs.sqlite' is a folder, not a database file"),
             folderInPlace.err);
}

MRNN_TEST(runs_command_lists_runs_as_a_table) {
  ScratchFolder folder;
  { RunStore store(folder.file("runs.sqlite")); }
  const auto empty = runs({"runs", "list", folder.path()});
  EXPECT_EQ(empty.code, 0);
  EXPECT_EQ(empty.out, "no runs yet in " + folder.path() + "\n");

  fillFixture(folder);
  const auto outcome = runs({"runs", "list", folder.path()});
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(outcome.err, "");
  EXPECT_EQ(outcome.out,
            "id  name           model        params  status    steps  best valid bpc  test bpc"
            "  duration\n"
            " 1  char, \"small\"  mlstm x2  1,234,567  finished  10000          1.2500    1.3000"
            "   1:02:04\n"
            " 2  word-lm        lstm             42  failed        7               -         -"
            "   0:00:00\n");
}

MRNN_TEST(runs_command_shows_one_run) {
  ScratchFolder folder;
  fillFixture(folder);
  const auto outcome = runs({"runs", "show", folder.path(), "1"});
  EXPECT_EQ(outcome.code, 0);
  const std::string& text = outcome.out;
  for (const std::string part :
       {"run 1: char, \"small\"\n", "  model       mlstm x2\n", "  parameters  1,234,567\n",
        "  status      finished\n", "  reason      -\n", "  started     2024-05-01T10:00:00Z\n",
        "  ended       2024-05-01T11:02:03Z\n", "  duration    1:02:04 (3723.5 s)\n",
        "  steps       10000\n", "  best valid  1.2500 bpc\n", "  test        1.3000 bpc\n",
        "checkpoints:\n  kind  step  valid bpc  saved at              path\n"
        "  best     2     1.2500  2024-05-01T11:00:00Z  checkpoints/run-1/best.pt\n",
        "metrics:\n  name        points  last step  last value\n",
        "  odd,\"name\"       1          2    -2.5e-07\n",
        "  train/loss       2          2         0.1\n",
        "  valid/bpc        1          2         nan\n", "config:\n  model:\n    type: mlstm\n"}) {
    EXPECT_MSG(contains(text, part), "missing '" << part << "' in\n" << text);
  }

  const auto failed = runs({"runs", "show", folder.path(), "2"});
  EXPECT_EQ(failed.code, 0);
  EXPECT(contains(failed.out, "  reason      loss became NaN\nat step 7"));
  EXPECT(contains(failed.out, "checkpoints: none\n"));
  EXPECT(contains(failed.out, "metrics: none\n"));
  EXPECT(contains(failed.out, "config: none\n"));

  const auto unknown = runs({"runs", "show", folder.path(), "42"});
  EXPECT_EQ(unknown.code, 1);
  EXPECT_MSG(contains(unknown.err, "no run 42"), unknown.err);
  EXPECT(unknown.out.empty());
}

MRNN_TEST(runs_command_exports_to_stdout) {
  ScratchFolder folder;
  fillFixture(folder);
  RunStore store(folder.file("runs.sqlite"));
  auto outcome = runs({"runs", "export", folder.path(), "--format", "csv"});
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(outcome.out, store.exportRunsCsv());
  outcome = runs({"runs", "export", folder.path(), "--format=json"});
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(outcome.out, store.exportRunsJson());
  outcome = runs({"runs", "export", folder.path(), "1", "--format", "json"});
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(outcome.out, store.exportMetricsJson(1));
  outcome = runs({"runs", "export", folder.path(), "--format", "csv", "1"});
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(outcome.out, store.exportMetricsCsv(1));

  outcome = runs({"runs", "export", folder.path(), "9", "--format", "csv"});
  EXPECT_EQ(outcome.code, 1);
  EXPECT_MSG(contains(outcome.err, "no run 9"), outcome.err);
}

MRNN_TEST(runs_command_exports_to_a_file) {
  ScratchFolder folder;
  fillFixture(folder);
  RunStore store(folder.file("runs.sqlite"));
  const std::string file = folder.file("runs.csv");
  auto outcome = runs({"runs", "export", folder.path(), "--format", "csv", "--output", file});
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(outcome.out, "wrote " + file + "\n");
  EXPECT_EQ(readFile(file), store.exportRunsCsv());

  // Replaced whole, and a file that cannot be written is a failure naming it.
  outcome = runs({"runs", "export", folder.path(), "1", "--format", "json", "--output", file});
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(readFile(file), store.exportMetricsJson(1));
  const std::string blocked = folder.file("runs.sqlite") + "/out.json";
  outcome = runs({"runs", "export", folder.path(), "--format", "json", "--output", blocked});
  EXPECT_EQ(outcome.code, 1);
  EXPECT_MSG(contains(outcome.err, blocked), outcome.err);
}

MRNN_TEST(runs_command_reports_a_corrupt_database) {
  ScratchFolder folder;
  folder.write("runs.sqlite", std::string(2048, 'x'));
  const auto outcome = runs({"runs", "list", folder.path()});
  EXPECT_EQ(outcome.code, 1);
  EXPECT_MSG(contains(outcome.err, folder.file("runs.sqlite")) &&
                 contains(outcome.err, "it is not a run database"),
             outcome.err);
}
