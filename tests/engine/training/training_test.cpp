// The training loop: exact resumption, stop and pause, NaN handling, the run database, and
// every kind of bad input ending the run with a clear reason.

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <torch/torch.h>

#include "engine/data/corpus.h"
#include "engine/io/atomic_file.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/training/checkpoint.h"
#include "engine/training/resumed_training.h"
#include "engine/training/trainer.h"
#include "engine/training/training_run.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"

using namespace mrnn;
using namespace mrnn::test;

MRNN_TEST(resume_continues_exactly) {
  ScratchProject whole("resume-whole");
  ScratchProject split("resume-split");
  const auto uninterrupted = trainToEnd(whole.project());
  EXPECT_MSG(uninterrupted.finished, uninterrupted.reason);
  EXPECT_EQ(uninterrupted.steps, int64_t{12});

  auto firstHalf = split.project();
  firstHalf.training.maxSteps = 6;
  const auto first = trainToEnd(firstHalf);
  EXPECT_MSG(first.finished, first.reason);
  auto secondHalf = split.project();  // max_steps 12 again, given as a resume's length
  const auto second =
      trainToEnd(secondHalf, first.latestCheckpoint, engine::lengthOf(secondHalf.training));
  EXPECT_MSG(second.finished, second.reason);
  EXPECT_EQ(second.steps, int64_t{12});
  EXPECT_EQ(second.runId, first.runId);

  const std::string differing = firstDifferentWeight(
      whole.project(), uninterrupted.latestCheckpoint, second.latestCheckpoint);
  EXPECT_MSG(differing.empty(), differing << " differs after 6 + 6 steps from 12 uninterrupted");
}

MRNN_TEST(finished_run_is_in_the_database) {
  ScratchProject scratch("database");
  const auto project = scratch.project();
  const auto outcome = trainToEnd(project);
  EXPECT_MSG(outcome.finished, outcome.reason);
  engine::RunStore store(engine::RunPaths::database(project.folder));
  const auto run = store.run(outcome.runId);
  EXPECT(run.has_value());
  EXPECT(run->status == engine::RunStatus::Finished);
  EXPECT_EQ(run->steps, int64_t{12});
  EXPECT_EQ(run->modelType, std::string("mlstm"));
  EXPECT(run->bestValid.has_value() && *run->bestValid > 0.0);
  EXPECT(run->testResult.has_value() && *run->testResult > 0.0);
  EXPECT_EQ(store.metrics(outcome.runId, "train/loss").size(), size_t{12});
  EXPECT_EQ(store.metrics(outcome.runId, "valid/bpc").size(), size_t{3});  // steps 5, 10, 12
  EXPECT_EQ(store.checkpoints(outcome.runId).size(), size_t{2});
  EXPECT(std::filesystem::exists(outcome.bestCheckpoint));
  // Recorded relative to the project folder, so they resolve from any working directory.
  for (const auto& record : store.checkpoints(outcome.runId)) {
    EXPECT(std::filesystem::path(record.path).is_relative());
    EXPECT(std::filesystem::exists(std::filesystem::path(project.folder) / record.path));
  }
}

MRNN_TEST(stop_leaves_a_resumable_checkpoint) {
  ScratchProject scratch("stop");
  auto project = scratch.project();
  project.training.maxSteps = 100000;
  engine::TrainingRun run(project);
  run.start();
  while (true) {
    const auto event = run.events().pop(std::chrono::seconds(30));
    EXPECT_MSG(event.has_value(), "no event within 30 s");
    if (std::holds_alternative<engine::StepEvent>(*event)) break;
  }
  run.stop();
  run.wait();
  const auto& outcome = run.outcome();
  EXPECT(outcome.stopped);
  EXPECT(outcome.steps >= 1 && outcome.steps < 100000);
  engine::RunStore store(engine::RunPaths::database(project.folder));
  EXPECT(store.run(outcome.runId)->status == engine::RunStatus::Stopped);
  engine::RunLength length;
  length.maxSteps = outcome.steps + 3;
  const auto resumed = trainToEnd(project, outcome.latestCheckpoint, length);
  EXPECT_MSG(resumed.finished, resumed.reason);
  EXPECT_EQ(resumed.steps, outcome.steps + 3);
}

MRNN_TEST(pause_holds_the_loop_until_resumed) {
  ScratchProject scratch("pause");
  auto project = scratch.project();
  project.training.maxSteps = 100000;
  engine::TrainingRun run(project);
  run.start();
  while (!std::holds_alternative<engine::StepEvent>(*run.events().pop(std::chrono::seconds(30)))) {
  }
  run.pause();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  run.events().drain();  // at most the step in flight when pause was asked
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (const auto& event : run.events().drain()) {
    EXPECT_MSG(!std::holds_alternative<engine::StepEvent>(event), "a step ran while paused");
  }
  run.resume();
  bool stepped = false;
  for (int i = 0; i < 100 && !stepped; ++i) {
    const auto event = run.events().pop(std::chrono::milliseconds(300));
    stepped = event && std::holds_alternative<engine::StepEvent>(*event);
  }
  EXPECT(stepped);
  run.stop();
  run.wait();
  EXPECT(run.outcome().stopped);
}

MRNN_TEST(nan_loss_stops_the_run_and_keeps_the_last_good_checkpoint) {
  ScratchProject scratch("nan");
  auto project = scratch.project();
  project.training.maxSteps = 4;
  const auto good = trainToEnd(project);
  EXPECT_MSG(good.finished, good.reason);
  // Poison the weights of the latest checkpoint, keep the good file's bytes for comparison.
  auto checkpoint = engine::Checkpoint::open(good.latestCheckpoint);
  engine::LanguageModel model(project.model, checkpoint.vocabulary().size());
  checkpoint.loadModel(model);
  {
    torch::NoGradGuard noGrad;
    model.named_parameters()["output.b"].fill_(std::numeric_limits<float>::quiet_NaN());
  }
  const std::string poisoned = scratch.file("poisoned.pt");
  engine::Checkpoint::save(poisoned, checkpoint.snapshot(), model, nullptr, nullptr);
  const std::string before = engine::readWholeFile(good.latestCheckpoint, UINT64_MAX);

  project.training.maxSteps = 10;
  std::vector<engine::TrainingEvent> events;
  engine::StopToken control;
  engine::Trainer trainer(project, [&](engine::TrainingEvent e) { events.push_back(e); });
  const auto outcome = trainer.run(control, poisoned);
  EXPECT(outcome.failed);
  // Refused as it loads, naming the tensor, before any step could use it.
  EXPECT_MSG(outcome.reason.find("NaN") != std::string::npos, outcome.reason);
  EXPECT_MSG(outcome.reason.find("output.b") != std::string::npos, outcome.reason);
  EXPECT(std::holds_alternative<engine::FailedEvent>(events.back()));
  EXPECT(engine::readWholeFile(good.latestCheckpoint, UINT64_MAX) == before);
  engine::RunStore store(engine::RunPaths::database(project.folder));
  EXPECT(store.run(good.runId)->status == engine::RunStatus::Finished);
  // Nor can it be evaluated or sampled: loading it is refused.
  engine::LanguageModel fresh(project.model, checkpoint.vocabulary().size());
  auto reopened = engine::Checkpoint::open(poisoned);
  EXPECT_THROWS_WITH(engine::CheckpointError, reopened.loadModel(fresh), "NaN", "output.b");
}

// An update that leaves the weights NaN (Adam's epsilon underflows to 0 and divides 0 by 0
// for the rows no symbol of the window touched) ends the run: nothing is saved from it, no
// validation of it is "best", and the run is failed with the reason.
MRNN_TEST(nan_weights_after_an_update_never_become_a_checkpoint) {
  ScratchProject scratch("nan-weights");
  auto project = scratch.project();
  project.training.optimizer.epsilon = 1e-300;
  project.training.checkpointEvery = 1;
  project.training.validateEvery = 1;
  project.training.maxSteps = 4;
  std::vector<engine::TrainingEvent> events;
  engine::StopToken control;
  engine::Trainer trainer(project, [&](engine::TrainingEvent e) { events.push_back(e); });
  const auto outcome = trainer.run(control);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("NaN") != std::string::npos, outcome.reason);
  EXPECT_MSG(outcome.reason.find("step 1") != std::string::npos, outcome.reason);
  for (const auto& event : events) {
    EXPECT(!std::holds_alternative<engine::ValidationEvent>(event));
    EXPECT(!std::holds_alternative<engine::CheckpointEvent>(event));
  }
  EXPECT(!std::filesystem::exists(outcome.bestCheckpoint));
  EXPECT(!std::filesystem::exists(outcome.latestCheckpoint));
  engine::RunStore store(engine::RunPaths::database(project.folder));
  const auto run = store.run(outcome.runId);
  EXPECT(run && run->status == engine::RunStatus::Failed);
  EXPECT(run && !run->bestValid);
}

MRNN_TEST(missing_empty_and_binary_corpora_fail_clearly) {
  ScratchProject scratch("corpus");
  auto project = scratch.project();
  project.data.train = "nowhere.txt";
  auto outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("nowhere.txt") != std::string::npos, outcome.reason);

  scratch.write("empty.txt", "");
  project.data.train = "empty.txt";
  outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("empty") != std::string::npos, outcome.reason);

  scratch.write("binary.txt", std::string("text\0\x01\x02 more", 13));
  project.data.train = "binary.txt";
  outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("binary.txt") != std::string::npos, outcome.reason);
}

MRNN_TEST(symbol_outside_the_vocabulary_fails_clearly) {
  ScratchProject scratch("oov");
  auto project = scratch.project();
  scratch.write("valid.txt", "the cat sat on the mat\n");
  scratch.write("test.txt", "the dog sat on a ball: Zebra\n");  // ':' 'Z' 'b' unseen
  project.data.valid = "valid.txt";
  project.data.test = "test.txt";
  project.data.vocabulary = engine::VocabularySource::Train;  // the strict choice
  const auto outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("test.txt") != std::string::npos, outcome.reason);
  EXPECT_MSG(outcome.reason.find("train_unk") != std::string::npos, outcome.reason);
}

// A rare symbol in the held-out part of a single-file book (a '%' in a licence) does not stop
// training: by default the vocabulary comes from every split, as char-rnn's does; with
// train_unk such symbols read as <unk>, counted and reported.
MRNN_TEST(a_held_out_symbol_the_training_part_lacks_trains_by_default) {
  ScratchProject scratch("rare");
  auto project = scratch.project(4000);
  std::string text = syntheticText(4000);
  text.replace(3900, 3, "%%%");  // inside the test split only (the last 5%)
  scratch.write("corpus.txt", text);
  project.training.maxSteps = 2;
  std::vector<std::string> logs;
  engine::StopToken control;
  engine::Trainer trainer(project, [&](engine::TrainingEvent e) {
    if (auto* log = std::get_if<engine::LogEvent>(&e)) logs.push_back(log->message);
  });
  const auto outcome = trainer.run(control);
  EXPECT_MSG(outcome.finished, outcome.reason);
  auto corpus = engine::loadCorpus(project.data, project.model.input.level, project.folder);
  EXPECT(corpus.vocabulary.find("%") >= 0);
  EXPECT(corpus.vocabulary.unkId() < 0);

  project.data.vocabulary = engine::VocabularySource::TrainUnk;
  corpus = engine::loadCorpus(project.data, project.model.input.level, project.folder);
  EXPECT(corpus.vocabulary.find("%") < 0);
  EXPECT(corpus.vocabulary.unkId() >= 0);
  EXPECT_EQ(corpus.test.unknownSymbols, int64_t{3});
  EXPECT_EQ(corpus.valid.unknownSymbols, int64_t{0});
  logs.clear();
  engine::Trainer reporting(project, [&](engine::TrainingEvent e) {
    if (auto* log = std::get_if<engine::LogEvent>(&e)) logs.push_back(log->message);
  });
  EXPECT(reporting.run(control).finished);
  EXPECT(std::any_of(logs.begin(), logs.end(), [](const std::string& line) {
    return line.find("test: 3 symbols") != std::string::npos;
  }));

  project.data.vocabulary = engine::VocabularySource::Train;
  const auto strict = trainToEnd(project);
  EXPECT(strict.failed);
  EXPECT_MSG(strict.reason.find("'%'") != std::string::npos, strict.reason);

  // Three files: the vocabulary is the union of theirs.
  scratch.write("valid.txt", "the cat sat on the mat\n");
  scratch.write("test.txt", "the dog sat on a ball: Zebra\n");
  project.data.valid = "valid.txt";
  project.data.test = "test.txt";
  project.data.vocabulary = engine::VocabularySource::Auto;
  corpus = engine::loadCorpus(project.data, project.model.input.level, project.folder);
  EXPECT(corpus.vocabulary.find("Z") >= 0);
  EXPECT(corpus.vocabulary.find(":") >= 0);
  EXPECT_EQ(corpus.test.tokens.size(), int64_t{29});
}

// Checkpoints written before mrnn layers had a `bias` key had the bias: they load as the
// model they hold, and a project must ask for the bias to continue them.
MRNN_TEST(mrnn_checkpoints_from_before_the_bias_key_keep_their_bias) {
  ScratchProject scratch("mrnn-bias");
  auto project = scratch.project();
  project.model.layers[0].type = engine::CellType::Mrnn;
  project.model.layers[0].bias = true;
  project.training.maxSteps = 2;
  const auto outcome = trainToEnd(project);
  EXPECT_MSG(outcome.finished, outcome.reason);
  auto checkpoint = engine::Checkpoint::open(outcome.latestCheckpoint);
  const std::string current = checkpoint.snapshot().modelYaml;
  EXPECT_MSG(current.find("bias: true") != std::string::npos, current);
  // The same checkpoint as the earlier writer wrote it: no bias key.
  const auto withoutBias = [](const std::string& yaml) {
    std::string out;
    std::istringstream lines(yaml);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("bias: true") == std::string::npos) out += line + "\n";
    }
    return out;
  };
  engine::TrainingSnapshot legacy = checkpoint.snapshot();
  legacy.modelYaml = withoutBias(legacy.modelYaml);
  legacy.projectYaml = withoutBias(legacy.projectYaml);
  EXPECT(legacy.modelYaml.find("bias: true") == std::string::npos);
  auto model = loadWeights(project, outcome.latestCheckpoint);
  const std::string old = scratch.file("old.pt");
  engine::Checkpoint::save(old, legacy, *model, nullptr, nullptr);

  auto reopened = engine::Checkpoint::open(old);
  EXPECT_EQ(reopened.snapshot().modelYaml, current);
  EXPECT(engine::parseProject(reopened.snapshot().projectYaml).model.layers[0].bias);
  EXPECT(loadWeights(project, old)->named_parameters().contains("layer1.b"));
  auto paperForm = project;
  paperForm.model.layers[0].bias = false;
  engine::LanguageModel plain(paperForm.model, reopened.vocabulary().size());
  EXPECT(!plain.named_parameters().contains("layer1.b"));
  EXPECT_THROWS_WITH(engine::CheckpointError,
                     reopened.checkCompatible(paperForm.model, reopened.vocabulary()),
                     "bias: true");
}

// Held-out splits too small to score are refused when the corpus loads, not at the first
// validation or after the whole training.
MRNN_TEST(empty_or_one_symbol_held_out_splits_fail_before_training) {
  ScratchProject scratch("splits");
  auto project = scratch.project();
  project.data.validFraction = 0.0;
  auto outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_EQ(outcome.steps, int64_t{0});
  EXPECT_MSG(outcome.reason.find("data.valid_fraction") != std::string::npos, outcome.reason);

  project = scratch.project();
  scratch.write("valid.txt", "the cat sat on the mat\n");
  scratch.write("test.txt", "t");
  project.data.valid = "valid.txt";
  project.data.test = "test.txt";
  outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_EQ(outcome.steps, int64_t{0});
  EXPECT_MSG(outcome.reason.find("test.txt: the test split has 1 symbol") != std::string::npos,
             outcome.reason);
  EXPECT(!std::filesystem::exists(engine::RunPaths::database(project.folder)) ||
         engine::RunStore(engine::RunPaths::database(project.folder)).listRuns().empty());
}

// A run resumed from an older checkpoint trains those steps again: each step's metrics
// appear once, the later rows of the abandoned continuation gone.
MRNN_TEST(metrics_after_the_resumed_checkpoint_are_replaced) {
  ScratchProject scratch("resume-metrics");
  auto project = scratch.project();
  project.training.maxSteps = 4;
  project.training.validateEvery = 0;
  const auto first = trainToEnd(project);
  EXPECT_MSG(first.finished, first.reason);
  const std::string older = scratch.file("older.pt");
  std::filesystem::copy_file(first.latestCheckpoint, older);
  engine::RunLength length;
  length.maxSteps = 8;
  EXPECT(trainToEnd(project, first.latestCheckpoint, length).finished);  // steps 5..8
  const auto again = trainToEnd(project, older, length);                 // steps 5..8 once more
  EXPECT_MSG(again.finished, again.reason);
  engine::RunStore store(engine::RunPaths::database(project.folder));
  const auto losses = store.metrics(first.runId, "train/loss");
  EXPECT_EQ(losses.size(), size_t{8});
  for (size_t i = 0; i < losses.size(); ++i) EXPECT_EQ(losses[i].step, static_cast<int64_t>(i + 1));
}

MRNN_TEST(unwritable_project_folder_fails_clearly) {
  ScratchProject scratch("unwritable");
  auto project = scratch.project();
  scratch.write("blocker", "a file where a folder should be");
  const std::string corpus = scratch.file("corpus.txt");
  project.folder = scratch.file("blocker") + "/project";
  project.data.train = corpus;  // absolute, so the corpus is still found
  const auto outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("blocker") != std::string::npos, outcome.reason);
}

MRNN_TEST(cuda_on_a_cpu_build_is_refused_clearly) {
  if (torch::cuda::is_available()) MRNN_SKIP("this machine has CUDA");
  ScratchProject scratch("cuda");
  auto project = scratch.project();
  project.training.device = "cuda";
  const auto outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("no CUDA") != std::string::npos, outcome.reason);
}

// bf16 with the device chosen at launch (--device cpu, the training panel's CPU) is refused
// before a step, naming the setting and the device, rather than training in float32 unasked.
MRNN_TEST(bf16_on_the_cpu_is_refused_before_training) {
  ScratchProject scratch("bf16cpu");
  auto project = scratch.project();
  project.training.device = "cpu";
  project.training.bf16 = true;
  const auto outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("training.bf16") != std::string::npos &&
                 outcome.reason.find("'cpu'") != std::string::npos,
             outcome.reason);
  EXPECT_EQ(outcome.steps, int64_t{0});
}

namespace {

// A run of `project` stopped at step `stopAt`, then resumed under `edited` (the project file
// as it reads after an edit): both outcomes, and the resumed run's log lines.
struct EditedResume {
  engine::TrainingOutcome first;
  engine::TrainingOutcome second;
  std::vector<std::string> lines;
};

EditedResume stopThenResumeEdited(const engine::Project& project, int64_t stopAt,
                                  const engine::Project& edited) {
  EditedResume result;
  {
    engine::TrainingRun run(project);
    engine::RunLength length;
    length.stopAt = stopAt;
    run.start("", length);
    run.wait();
    result.first = run.outcome();
  }
  EXPECT_MSG(result.first.stopped, result.first.reason);
  engine::StopToken control;
  engine::Trainer trainer(edited, [&result](engine::TrainingEvent event) {
    if (const auto* line = std::get_if<engine::LogEvent>(&event)) {
      result.lines.push_back(line->message);
    }
  });
  result.second = trainer.run(control, result.first.latestCheckpoint);
  return result;
}

}  // namespace

// A resumed run is the run that was started: a project edited since (another learning rate,
// another length), or a run started with a --max-steps its file lacks, does not change it
// half-way, and the log names what the project now sets otherwise.
MRNN_TEST(a_resumed_run_keeps_the_settings_it_started_with) {
  ScratchProject whole("keep-whole");
  ScratchProject split("keep-split");
  auto started = whole.project();
  started.training.maxSteps = 8;
  const auto uninterrupted = trainToEnd(started);
  EXPECT_MSG(uninterrupted.finished, uninterrupted.reason);

  auto project = split.project();
  project.training.maxSteps = 8;  // as `mrnn train --max-steps 8` gives it; the file says 12
  auto edited = split.project();
  edited.training.optimizer.learningRate = 0.05;
  const auto [first, second, lines] = stopThenResumeEdited(project, 4, edited);
  EXPECT_MSG(second.finished, second.reason);
  EXPECT_EQ(second.steps, int64_t{8});

  const std::string differing =
      firstDifferentWeight(project, uninterrupted.latestCheckpoint, second.latestCheckpoint);
  EXPECT_MSG(differing.empty(), differing << " differs after 4 + 4 steps from 8 uninterrupted");
  bool named = false;
  for (const auto& line : lines) {
    named = named || (line.find("optimizer.lr 0.05 (the run's: 0.01)") != std::string::npos &&
                      line.find("max_steps 12 (the run's: 8)") != std::string::npos);
  }
  EXPECT_MSG(named, "no log line names the settings the run keeps");
}

// A resumed run continues as the model it started as, whatever the project's model section
// says now (a layer added in the composer since), and says so in one line; the run's weights
// after 2 + 2 steps are those of 4 uninterrupted ones.
MRNN_TEST(a_resumed_run_continues_as_the_model_it_started_as) {
  ScratchProject whole("model-whole");
  ScratchProject split("model-split");
  auto started = whole.project();
  started.training.maxSteps = 4;
  const auto uninterrupted = trainToEnd(started);
  EXPECT_MSG(uninterrupted.finished, uninterrupted.reason);

  auto project = split.project();
  project.training.maxSteps = 4;
  auto edited = project;
  edited.model.layers.push_back(edited.model.layers[0]);  // a second layer, added since
  const auto [first, second, lines] = stopThenResumeEdited(project, 2, edited);
  EXPECT_MSG(second.finished, second.reason);
  EXPECT_EQ(second.steps, int64_t{4});
  const std::string differing =
      firstDifferentWeight(project, uninterrupted.latestCheckpoint, second.latestCheckpoint);
  EXPECT_MSG(differing.empty(), differing << " differs after 2 + 2 steps from 4 uninterrupted");
  bool said = false;
  for (const auto& line : lines) {
    said = said || (line.find("run " + std::to_string(first.runId) + " continues as the ") !=
                        std::string::npos &&
                    line.find("the project's model has changed since (layers[1] added)") !=
                        std::string::npos);
  }
  EXPECT_MSG(said, "no log line says the run keeps its model, naming the change");
}

// A resume given a length (`mrnn resume --max-steps`, `--epochs`, the training panel's) trains
// to it; --epochs alone means epochs, whatever step limit the run had.
MRNN_TEST(a_resume_given_a_length_trains_to_it) {
  ScratchProject scratch("resume-length");
  auto project = scratch.project();
  project.training.maxSteps = 4;
  const auto first = trainToEnd(project);
  EXPECT_MSG(first.finished, first.reason);
  engine::RunLength longer;
  longer.maxSteps = 7;
  const auto second = trainToEnd(project, first.latestCheckpoint, longer);
  EXPECT_MSG(second.finished, second.reason);
  EXPECT_EQ(second.steps, int64_t{7});
  // The run's record says so (runs show, the Runs table, Diff configs).
  const auto record = engine::RunStore(engine::RunPaths::database(project.folder)).run(first.runId);
  EXPECT_MSG(record && record->configYaml.find("max_steps: 7") != std::string::npos,
             (record ? record->configYaml : std::string("no record")));
  // The new length is the run's now: resumed again without one, it stays finished at 7.
  const auto again = trainToEnd(project, second.latestCheckpoint);
  EXPECT_EQ(again.steps, int64_t{7});

  engine::TrainingConfig training = project.training;
  engine::RunLength epochs;
  epochs.epochs = 3;
  engine::applyRunLength(training, epochs);
  EXPECT_EQ(training.maxSteps, int64_t{0});
  EXPECT_EQ(training.epochs, int64_t{3});
  const engine::RunLength same = engine::lengthOf(project.training);
  engine::applyRunLength(training, same);
  EXPECT(training.maxSteps == project.training.maxSteps &&
         training.epochs == project.training.epochs);

  // A time budget is a length too (`mrnn resume --max-seconds`, the panel's Time budget): a
  // resume given one keeps to it, where the run's own budget once stayed.
  engine::RunLength budget;
  budget.maxSeconds = 90.0;
  engine::TrainingConfig started = project.training;
  started.maxSeconds = 0.0;
  EXPECT_EQ(engine::resumedTraining(project.training, started, budget, nullptr).maxSeconds, 90.0);
  EXPECT_EQ(engine::resumedTraining(project.training, started, {}, nullptr).maxSeconds, 0.0);
  engine::TrainingConfig timed = project.training;
  timed.maxSeconds = 30.0;
  EXPECT_EQ(engine::lengthOf(timed).maxSeconds.value_or(0.0), 30.0);
}

// Where a resumed run trains is the caller's (a GPU run continues on a laptop); nothing else.
MRNN_TEST(resumed_settings_take_only_the_place_from_the_project) {
  engine::TrainingConfig started;
  started.device = "cuda";
  started.bf16 = true;
  started.threads = 8;
  started.batchSize = 64;
  started.optimizer.learningRate = 0.002;
  engine::TrainingConfig now;
  now.device = "cpu";
  now.threads = 2;
  now.batchSize = 32;
  std::vector<std::string> differences;
  const auto resumed = engine::resumedTraining(now, started, {}, &differences);
  EXPECT_EQ(resumed.device, std::string("cpu"));
  EXPECT(!resumed.bf16);
  EXPECT_EQ(resumed.threads, 2);
  EXPECT_EQ(resumed.batchSize, int64_t{64});
  EXPECT_EQ(resumed.optimizer.learningRate, 0.002);
  EXPECT_EQ(differences.size(), size_t{2});  // batch_size and optimizer.lr
  for (const auto& line : differences) {
    EXPECT_MSG(line.rfind("batch_size 32 (the run's: 64)", 0) == 0 ||
                   line.rfind("optimizer.lr 0.001 (the run's: 0.002)", 0) == 0,
               line);
  }
}

// Every generator a run draws masks from survives the checkpoint: the CPU's, the GPU's, and
// each rank's of both (GPU ranks' included, so data parallel on GPUs resumes exactly).
MRNN_TEST(checkpoints_keep_every_generator_state) {
  ScratchProject scratch("generators");
  auto project = scratch.project();
  project.training.maxSteps = 2;
  const auto outcome = trainToEnd(project);
  EXPECT_MSG(outcome.finished, outcome.reason);
  auto checkpoint = engine::Checkpoint::open(outcome.latestCheckpoint);
  engine::LanguageModel model(project.model, checkpoint.vocabulary().size());
  checkpoint.loadModel(model);
  engine::TrainingSnapshot snapshot = checkpoint.snapshot();
  const auto bytes = [](int64_t seed, std::vector<int64_t> shape) {
    torch::manual_seed(static_cast<uint64_t>(seed));
    return torch::randint(0, 256, shape, torch::kUInt8);
  };
  snapshot.gpuRngState = bytes(1, {16});
  // A rank's CPU generator state is as long as this process's (a damaged one is refused).
  const int64_t cpuBytes = snapshot.rngState.numel();
  snapshot.rankRngStates = bytes(2, {2, cpuBytes});
  snapshot.rankGpuRngStates = bytes(3, {2, 16});
  const std::string path = scratch.file("generators.pt");
  engine::Checkpoint::save(path, snapshot, model, nullptr, nullptr);
  const auto back = engine::Checkpoint::open(path).snapshot();
  EXPECT(torch::equal(back.rngState, snapshot.rngState));
  EXPECT(torch::equal(back.gpuRngState, snapshot.gpuRngState));
  EXPECT(torch::equal(back.rankRngStates, snapshot.rankRngStates));
  EXPECT(back.rankGpuRngStates.defined() &&
         torch::equal(back.rankGpuRngStates, snapshot.rankGpuRngStates));
}
