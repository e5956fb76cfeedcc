// Whose run a trainer writes: one writer per run, checkpoints that carry their project and
// run, work that does not fit the machine refused before it starts, and the events that name
// the run.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include <torch/torch.h>

#include "engine/runtime/machine_resources.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/training/checkpoint.h"
#include "engine/training/run_test_evaluation.h"
#include "engine/training/trainer.h"
#include "test_harness.h"
#include "training_fixtures.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

engine::TrainingOutcome trainWith(const engine::Project& project, const std::string& resumeFrom,
                                  std::vector<engine::TrainingEvent>* events = nullptr) {
  engine::StopToken control;
  engine::Trainer trainer(project, [events](engine::TrainingEvent event) {
    if (events) events->push_back(std::move(event));
  });
  // A resume trains to the given project's length, as `mrnn resume --max-steps` does: the
  // run's other settings are its own.
  engine::RunLength length;
  if (!resumeFrom.empty()) length.maxSteps = project.training.maxSteps;
  return trainer.run(control, resumeFrom, length);
}

engine::Project quick(const ScratchProject& scratch, int64_t steps = 2) {
  auto project = scratch.project(5000);
  project.training.maxSteps = steps;
  project.training.validateEvery = 0;
  return project;
}

// What a run looks like in the database, to see that a refused writer changed nothing.
struct RunState {
  engine::RunStatus status;
  int64_t steps;
  size_t lossRows;
  std::string latestBytes;
  bool operator==(const RunState& o) const {
    return status == o.status && steps == o.steps && lossRows == o.lossRows &&
           latestBytes == o.latestBytes;
  }
};

RunState stateOf(const engine::Project& project, int64_t runId) {
  engine::RunCatalogue catalogue(project.folder);
  const auto run = catalogue.run(runId);
  std::ifstream in(engine::RunPaths::latest(project.folder, runId), std::ios::binary);
  return {run->status, run->steps, catalogue.store().metrics(runId, "train/loss").size(),
          std::string(std::istreambuf_iterator<char>(in), {})};
}

// The checkpoint as a build before project identities wrote it: the same, without one.
void saveWithoutIdentity(const engine::Project& project, const std::string& from,
                         const std::string& to) {
  auto checkpoint = engine::Checkpoint::open(from);
  engine::LanguageModel model(project.model, checkpoint.vocabulary().size());
  checkpoint.loadModel(model);
  engine::TrainingSnapshot snapshot = checkpoint.snapshot();
  snapshot.projectId.clear();
  engine::Checkpoint::save(to, snapshot, model, nullptr, nullptr);
}

const engine::StartedEvent* startedEvent(const std::vector<engine::TrainingEvent>& events) {
  for (const auto& event : events) {
    if (const auto* started = std::get_if<engine::StartedEvent>(&event)) return started;
  }
  return nullptr;
}

}  // namespace

MRNN_TEST(a_foreign_checkpoint_never_takes_over_a_run) {
  ScratchProject a("identity-a"), b("identity-b");
  const auto projectA = quick(a), projectB = quick(b);
  const auto runA = trainWith(projectA, "");
  const auto runB = trainWith(projectB, "");
  EXPECT_MSG(runA.finished && runB.finished, runA.reason + runB.reason);
  EXPECT_EQ(runA.runId, runB.runId);  // both run 1: the case that used to be overwritten
  const RunState before = stateOf(projectA, runA.runId);

  auto longer = projectA;
  longer.training.maxSteps = 4;
  const auto foreign = trainWith(longer, runB.latestCheckpoint);
  EXPECT(foreign.failed);
  EXPECT_MSG(foreign.reason.find("another project") != std::string::npos, foreign.reason);
  EXPECT_MSG(foreign.reason.find(runB.latestCheckpoint) != std::string::npos, foreign.reason);
  EXPECT(stateOf(projectA, runA.runId) == before);

  // A checkpoint from before identities: accepted from its own run's folder only.
  const std::string legacyForeign = b.file("checkpoints/run-1/legacy.pt");
  saveWithoutIdentity(projectB, runB.latestCheckpoint, legacyForeign);
  const auto legacy = trainWith(longer, legacyForeign);
  EXPECT(legacy.failed);
  EXPECT_MSG(legacy.reason.find("carries no project identity") != std::string::npos, legacy.reason);
  EXPECT(stateOf(projectA, runA.runId) == before);
  const std::string legacyOwn = a.file("checkpoints/run-1/legacy.pt");
  saveWithoutIdentity(projectA, runA.latestCheckpoint, legacyOwn);
  const auto own = trainWith(longer, legacyOwn);
  EXPECT_MSG(own.finished, own.reason);
  EXPECT_EQ(own.steps, int64_t{4});
  // What it wrote from then on carries the project's identity.
  const std::string stamped = engine::Checkpoint::open(own.latestCheckpoint).snapshot().projectId;
  const std::string ours = engine::RunCatalogue(projectA.folder).projectId();
  EXPECT_EQ(stamped, ours);
}

// A checkpoint copied into another run's folder: resuming that run (`mrnn resume --run 1`
// picks run 1's latest.pt) must not continue, and so rewind, the run the file holds.
MRNN_TEST(a_checkpoint_in_another_runs_folder_is_refused_naming_both_runs) {
  ScratchProject scratch("run-swap");
  const auto project = quick(scratch, 2);
  const auto run1 = trainWith(project, "");
  auto longer = project;
  longer.training.maxSteps = 4;
  const auto run2 = trainWith(longer, "");
  EXPECT_MSG(run1.finished && run2.finished, run1.reason + run2.reason);
  EXPECT_EQ(run2.runId, int64_t{2});
  std::filesystem::copy_file(run2.latestCheckpoint, run1.latestCheckpoint,
                             std::filesystem::copy_options::overwrite_existing);
  const RunState run1Before = stateOf(project, 1);
  const RunState run2Before = stateOf(project, 2);

  auto further = project;
  further.training.maxSteps = 6;
  const auto resumed = trainWith(further, run1.latestCheckpoint);
  EXPECT(resumed.failed);
  EXPECT_MSG(resumed.reason.find("run 2") != std::string::npos &&
                 resumed.reason.find("run 1") != std::string::npos,
             resumed.reason);
  EXPECT_MSG(resumed.reason.find(run1.latestCheckpoint) != std::string::npos, resumed.reason);
  EXPECT(stateOf(project, 1) == run1Before);
  EXPECT(stateOf(project, 2) == run2Before);
}

MRNN_TEST(a_resume_never_swaps_a_runs_unreadable_settings_for_the_projects) {
  // A run started with a length today's checks refuse (an older version let it through):
  // its checkpoint's copy of the project no longer parses.
  ScratchProject scratch("unreadable-settings");
  auto project = quick(scratch, 2);
  project.training.epochs = 2000000;
  const auto first = trainWith(project, "");
  EXPECT_MSG(first.finished, first.reason);
  const RunState before = stateOf(project, first.runId);
  auto edited = quick(scratch, 2);
  edited.training.optimizer.learningRate = 0.5;
  const auto resumed = trainWith(edited, first.latestCheckpoint);
  EXPECT(resumed.failed);
  EXPECT_MSG(resumed.reason.find("run 1's own settings cannot be read") != std::string::npos &&
                 resumed.reason.find("training.epochs") != std::string::npos &&
                 resumed.reason.find("will not swap in the project's") != std::string::npos,
             resumed.reason);
  EXPECT(stateOf(project, first.runId) == before);
}

MRNN_TEST(a_resumed_run_shows_no_test_figure_of_its_earlier_end) {
  ScratchProject scratch("resumed-test-figure");
  const auto project = quick(scratch, 2);
  const auto first = trainWith(project, "");
  EXPECT_MSG(first.finished, first.reason);
  EXPECT(engine::RunCatalogue(project.folder).run(first.runId)->testResult.has_value());
  auto longer = project;
  longer.training.maxSteps = 4;
  std::optional<double> testWhileResumed = 0.0;
  engine::StopToken control;
  engine::Trainer trainer(longer, [&](engine::TrainingEvent event) {
    if (std::holds_alternative<engine::StartedEvent>(event)) {
      testWhileResumed = engine::RunCatalogue(project.folder).run(first.runId)->testResult;
    }
  });
  const auto resumed = trainer.run(control, first.latestCheckpoint, engine::RunLength{{}, 4, {}});
  EXPECT_MSG(resumed.finished, resumed.reason);
  EXPECT(!testWhileResumed.has_value());
  EXPECT(engine::RunCatalogue(project.folder).run(first.runId)->testResult.has_value());
}

MRNN_TEST(two_writers_never_share_a_run) {
  ScratchProject scratch("one-writer");
  const auto project = quick(scratch);
  const auto first = trainWith(project, "");
  EXPECT_MSG(first.finished, first.reason);
  const RunState before = stateOf(project, first.runId);
  auto longer = project;
  longer.training.maxSteps = 4;
  {
    // Another writer holds the run (here: this process, as a second `mrnn resume` would).
    engine::RunCatalogue catalogue(project.folder);
    engine::RunLock held = catalogue.lockForWriting(first.runId);
    std::vector<engine::TrainingEvent> events;
    const auto second = trainWith(longer, first.latestCheckpoint, &events);
    EXPECT(second.failed);
    EXPECT_MSG(second.reason.find("run 1 is being written by process " +
                                  std::to_string(::getpid())) != std::string::npos,
               second.reason);
    EXPECT(stateOf(project, first.runId) == before);
    // A new run of the same project is another run: it trains.
    const auto other = trainWith(project, "");
    EXPECT_MSG(other.finished, other.reason);
    EXPECT_EQ(other.runId, int64_t{2});
    // Nor may the GUI's "evaluate on test" record into a run someone writes.
    EXPECT_THROWS_WITH(engine::RunBusyError, engine::evaluateRunOnTest(project.folder, 1),
                       "being written");
  }
  // A checkpoint named for the evaluation must be the run's own.
  const auto others = engine::RunCatalogue(project.folder).checkpoints(2);
  EXPECT(!others.empty());
  if (!others.empty()) {
    EXPECT_THROWS_WITH(std::runtime_error,
                       engine::evaluateRunOnTest(project.folder, 1, nullptr, others.front().path),
                       "is not a checkpoint of run 1");
  }
  const auto resumed = trainWith(longer, first.latestCheckpoint);
  EXPECT_MSG(resumed.finished, resumed.reason);
  EXPECT_EQ(stateOf(project, first.runId).steps, int64_t{4});
  // The lock went with the trainer: the run is free again.
  EXPECT(!engine::RunCatalogue(project.folder).writer(first.runId).has_value());
}

MRNN_TEST(events_name_the_run_and_failures_before_it_say_so) {
  ScratchProject scratch("events-run-id");
  const auto project = quick(scratch);
  std::vector<engine::TrainingEvent> events;
  const auto outcome = trainWith(project, "", &events);
  EXPECT_MSG(outcome.finished, outcome.reason);
  const auto* started = startedEvent(events);
  EXPECT(started != nullptr);
  EXPECT_EQ(started->runId, outcome.runId);
  EXPECT(!started->resumed);
  auto longer = project;
  longer.training.maxSteps = 3;
  events.clear();
  trainWith(longer, outcome.latestCheckpoint, &events);
  started = startedEvent(events);
  EXPECT(started != nullptr && started->resumed && started->step == 2);

  auto broken = project;
  broken.data.train = "missing.txt";
  events.clear();
  const auto failed = trainWith(broken, "", &events);
  EXPECT(failed.failed);
  const auto* failure = std::get_if<engine::FailedEvent>(&events.back());
  EXPECT(failure != nullptr && failure->runId == 0);  // no run was created
}

MRNN_TEST(a_model_too_big_for_the_machine_is_refused_before_allocating) {
  ScratchProject scratch("too-big");
  auto project = quick(scratch);
  project.model.layers[0].hiddenSize = 1048576;
  const auto outcome = trainWith(project, "");
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("needs about") != std::string::npos &&
                 outcome.reason.find("TB") != std::string::npos &&
                 outcome.reason.find("available") != std::string::npos,
             outcome.reason);
  EXPECT_EQ(outcome.runId, int64_t{0});
  EXPECT(!engine::RunCatalogue::exists(project.folder));  // nothing was recorded
}

MRNN_TEST(thread_counts_are_capped_at_the_machine) {
  std::string note;
  EXPECT_EQ(engine::chooseThreadCount(99999, &note), engine::hardwareThreads());
  EXPECT(note.find("99999 threads asked for") != std::string::npos);
  note.clear();
  EXPECT_EQ(engine::chooseThreadCount(1, &note), 1);
  EXPECT(note.empty());
  EXPECT_EQ(engine::chooseThreadCount(0), engine::hardwareThreads());
}

MRNN_TEST(a_checkpoint_with_bytes_after_its_end_is_called_damaged_not_truncated) {
  ScratchProject scratch("trailing");
  const auto outcome = trainWith(quick(scratch), "");
  EXPECT_MSG(outcome.finished, outcome.reason);
  std::ifstream in(outcome.latestCheckpoint, std::ios::binary);
  std::string bytes(std::istreambuf_iterator<char>(in), {});
  scratch.write("trailing.pt", bytes + "appended by mistake");
  try {
    engine::Checkpoint::open(scratch.file("trailing.pt"));
    EXPECT_MSG(false, "a checkpoint with trailing bytes was accepted");
  } catch (const engine::CheckpointError& error) {
    const std::string what = error.what();
    EXPECT_MSG(what.find("truncated") == std::string::npos, what);
    EXPECT_MSG(what.find("19 bytes follow the end") != std::string::npos, what);
  }
}

// The defect: a run resumed after its corpus grew or shrank failed with the batcher's own
// words ("batcher: the state is for 4 streams of 769 steps, ... (another batch size or
// corpus?)"), naming neither the run nor what changed.
MRNN_TEST(a_run_whose_corpus_changed_length_is_refused_naming_the_run_and_the_corpus) {
  ScratchProject scratch("corpus-changed");
  const auto project = quick(scratch, 2);
  const auto first = trainWith(project, "");
  EXPECT_MSG(first.finished, first.reason);
  const RunState before = stateOf(project, first.runId);
  const auto longer = quick(scratch, 4);  // writes the corpus of 5000 symbols again
  scratch.write("corpus.txt", syntheticText(8000));
  const auto resumed = trainWith(longer, first.latestCheckpoint);
  EXPECT(resumed.failed);
  EXPECT_MSG(resumed.reason.find("run 1 cannot go on where it stopped") != std::string::npos &&
                 resumed.reason.find("training corpus has changed length") != std::string::npos &&
                 resumed.reason.find("batcher") == std::string::npos,
             resumed.reason);
  EXPECT(stateOf(project, first.runId) == before);
}

// The defect: a batch larger than the training split was refused in the batcher's words
// ("batcher: 3079 symbols are too few for 100000 streams"), naming neither split nor key.
MRNN_TEST(a_batch_larger_than_the_training_split_is_refused_naming_the_key) {
  ScratchProject scratch("batch-too-large");
  auto project = quick(scratch, 2);
  project.training.batchSize = 100000;
  const auto outcome = trainWith(project, "");
  EXPECT(outcome.failed);
  EXPECT_MSG(
      outcome.reason.find("the training split's 4,500 symbols are too few") != std::string::npos &&
          outcome.reason.find("training.batch_size") != std::string::npos,
      outcome.reason);
}
