// A queue whose run database another program holds (a database browser mid-edit, a sqlite3
// shell in a transaction) waits for it and goes on: its trials' ends are recorded once the
// database is free, and a stop asked meanwhile is still honoured at once.
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/local_executor.h"
#include "engine/runtime/stop_token.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_paths.h"
#include "experiment_fixture.h"
#include "store_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using engine::TrialStatus;
using test::planIn;
using test::RawDatabase;
using test::ScratchFolder;

namespace {

constexpr const char* kTwoTrials = R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002]
  slots: 1
)";

// A stand-in for `mrnn experiment trial FILE --trial N ...`: says it started (a file beside
// the project), trains for `seconds`, and ends as a finished trial does.
std::string writeTrialProgram(const ScratchFolder& folder, const std::string& seconds) {
  const std::string path = folder.file("trial.sh");
  folder.write("trial.sh", "#!/bin/sh\ntouch \"" + folder.file("started-") + "$5\"\nsleep " +
                               seconds + "\nexit 0\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

void waitForFile(const std::string& path) {
  for (int i = 0; i < 200 && !std::filesystem::exists(path); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// The queue's lines, kept for the test to read while the queue runs.
struct Lines {
  std::mutex mutex;
  std::vector<std::string> lines;
  bool has(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& line : lines) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }
};

// Options for a queue of stand-in trials that each train for `seconds`, its lines to `log`.
engine::QueueOptions queueOptions(const ScratchFolder& folder, const std::string& seconds,
                                  Lines& log) {
  engine::QueueOptions options;
  options.program = writeTrialProgram(folder, seconds);
  options.pollMilliseconds = 50;
  options.log = [&log](const std::string& line) {
    std::lock_guard<std::mutex> lock(log.mutex);
    log.lines.push_back(line);
  };
  return options;
}

}  // namespace

MRNN_TEST(a_queue_waits_for_a_held_database_and_records_its_trials_after) {
  ScratchFolder folder;
  const engine::ExperimentPlan plan = planIn(folder, kTwoTrials);
  Lines log;
  engine::QueueOptions options = queueOptions(folder, "0.5", log);
  // Held from trial 1's start until after it ended: its end, and trial 2's start, wait.
  std::thread holder([&folder] {
    waitForFile(folder.file("started-1"));
    RawDatabase other(engine::RunPaths::database(folder.path()));
    other.execute("BEGIN EXCLUSIVE");
    std::this_thread::sleep_for(std::chrono::seconds(7));
    other.execute("COMMIT");
  });
  engine::LocalExecutor executor;
  engine::QueueOutcome outcome = engine::QueueOutcome::Stopped;
  try {
    outcome = engine::runExperimentQueue(plan, options, executor);
  } catch (const std::exception& error) {
    holder.join();
    EXPECT_MSG(false, "the queue ended: " << error.what());
    return;
  }
  holder.join();
  EXPECT(outcome == engine::QueueOutcome::AllDone);
  EXPECT(log.has("another program holds the run database locked"));
  EXPECT(log.has("the run database is free again"));
  engine::ExperimentLedger ledger(folder.path());
  for (const auto& trial : ledger.trials(plan.experiment.name)) {
    EXPECT(trial.status == TrialStatus::Done);
  }
}

MRNN_TEST(a_queue_waiting_for_a_held_database_stops_at_once) {
  ScratchFolder folder;
  const engine::ExperimentPlan plan = planIn(folder, kTwoTrials);
  Lines log;
  engine::QueueOptions options = queueOptions(folder, "0.2", log);
  engine::StopToken stop;
  options.stop = &stop;
  // Held from trial 1's start; the stop comes once the queue says it waits, and the database
  // stays held 3 s more: the queue must not wait them out.
  std::thread holder([&] {
    waitForFile(folder.file("started-1"));
    RawDatabase other(engine::RunPaths::database(folder.path()));
    other.execute("BEGIN EXCLUSIVE");
    for (int i = 0; i < 200 && !log.has("another program holds"); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    stop.requestStop();
    std::this_thread::sleep_for(std::chrono::seconds(3));
    other.execute("COMMIT");
  });
  engine::LocalExecutor executor;
  engine::QueueOutcome outcome = engine::QueueOutcome::AllDone;
  std::string error;
  try {
    outcome = engine::runExperimentQueue(plan, options, executor);
  } catch (const std::exception& failure) {
    error = failure.what();
  }
  const auto ended = std::chrono::steady_clock::now();
  holder.join();
  const double heldAfter =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - ended).count();
  EXPECT_MSG(error.empty(), "the queue ended: " << error);
  EXPECT(outcome == engine::QueueOutcome::Stopped);
  EXPECT(log.has("another program holds the run database locked"));
  // The queue ended while the database was still held (the holder let go 3 s after the stop).
  EXPECT_MSG(heldAfter > 1.0, "the queue ended " << heldAfter << " s before the holder let go");

  // The next queue run finds trial 1 ended, and goes on.
  options.stop = nullptr;
  engine::LocalExecutor again;
  EXPECT(engine::runExperimentQueue(plan, options, again) == engine::QueueOutcome::AllDone);
}
