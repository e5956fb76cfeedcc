#include "engine/training/trainer.h"

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

#include "engine/config/model_names.h"
#include "engine/data/stream_batcher.h"
#include "engine/devices/compute_device.h"
#include "engine/models/language_model.h"
#include "engine/optim/lr_schedule.h"
#include "engine/optim/update_rule.h"
#include "engine/runtime/job_context.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_eta.h"
#include "engine/store/run_paths.h"
#include "engine/training/checkpoint.h"
#include "engine/training/collective.h"
#include "engine/training/data_parallel.h"
#include "engine/training/evaluator.h"
#include "engine/training/generator_states.h"
#include "engine/training/gradient_buckets.h"
#include "engine/training/held_out_note.h"
#include "engine/training/local_collective.h"
#include "engine/training/phase_job.h"
#include "engine/training/problem_score.h"
#include "engine/training/resume_state.h"
#include "engine/training/resumed_training.h"
#include "engine/training/run_counters.h"
#include "engine/training/run_journal.h"
#include "engine/training/step_report.h"
#include "engine/training/training_data.h"
#include "engine/training/training_failures.h"
#include "engine/training/training_parts.h"
#include "engine/training/validation_book.h"
#include "engine/training/window_objective.h"

namespace mrnn::engine {
namespace {

using Clock = std::chrono::steady_clock;

// One run on this process: its loop (run()) and the steps of it, over the pieces that vary
// (the update rule, the collective, the run's journal) and the values it keeps.
class Session {
 public:
  Session(const Project& project, const Trainer::Publish& publish, const StopToken& stop,
          Collective* collective, const RunLength& length)
      : project_(project),
        length_(length),
        publish_(publish),
        stop_(stop),
        local_(collective ? nullptr : std::make_unique<LocalCollective>()),
        collective_(collective ? *collective : *local_),
        ranked_(collective_.size() > 1),
        journal_(project.folder, collective_.rank() == 0,
                 [this](const std::string& line, bool isNote) { isNote ? note(line) : log(line); }),
        book_(project.training.earlyStopPatience, 0) {}

  TrainingOutcome run(const std::string& resumeFrom);

 private:
  const TrainingConfig& training() const { return project_.training; }
  void setUp(const std::string& resumeFrom);
  // Rank 0 creates the run or reopens the resumed one; every rank learns its id.
  void openRun(const std::string& resumeFrom);
  bool trainStep();  // false: the run is over (or stopping)
  // The step's event and metrics.
  void report(const UpdateResult& result, double rate, const StepTiming& timing);
  void validate();
  void saveCheckpoint(const std::string& kind);
  void finish();
  void end();
  // Whether the loop should stop before the next step; with ranks, as they all agreed.
  bool stopNow() const {
    return (ranked_ ? agreedStop_ : stop_.stopRequested()) ||
           (length_.stopAt > 0 && counters_.step >= length_.stopAt);
  }
  bool done() const;
  bool budgetSpent() const;  // training.max_seconds reached
  void log(const std::string& message) { publish_(LogEvent{message}); }
  void note(const std::string& message) { publish_(LogEvent{"note: " + message, true}); }
  JobContext evaluationJob(const std::string& phase) {
    return phaseJob([this](const PhaseEvent& event) { publish_(event); }, phase);
  }

  Project project_;         // its training and model become the run's own when it resumes
  const RunLength length_;  // a resume's new length, where the caller gives one
  const Trainer::Publish& publish_;
  const StopToken& stop_;  // the caller's: stop (with a checkpoint), pause between steps
  std::unique_ptr<LocalCollective> local_;  // one process: the collective of one rank
  Collective& collective_;
  const bool ranked_;   // several processes train the batch (data parallel)
  RunJournal journal_;  // rank 0 writes the run's record; the others' write nothing
  std::optional<ResumePlan> resume_;
  TrainingParts parts_;
  RunCounters counters_;
  ValidationBook book_;
  bool agreedStop_ = false;
  bool stalled_ = false;  // the update rule can no longer lower the loss (UpdateResult)
  TrainingOutcome outcome_;
};

bool Session::budgetSpent() const {
  return training().maxSeconds > 0 && counters_.wallSeconds >= training().maxSeconds;
}

bool Session::done() const {
  if (budgetSpent()) return true;
  if (training().maxSteps > 0) return counters_.step >= training().maxSteps;
  return parts_.batcher->epoch() >= training().epochs;
}

void Session::setUp(const std::string& resumeFrom) {
  if (!project_.hasData) {
    throw std::runtime_error("the project has no 'data:' section: name a training corpus first");
  }
  if (!resumeFrom.empty()) resume_.emplace(planResume(project_, resumeFrom, length_));
  // One process stops while its corpus is read; ranks stop together between steps instead.
  StopCheck stop;
  if (!ranked_) stop = [this] { return stop_.stopRequested(); };
  parts_ = buildTrainingParts(
      project_, collective_, [this](const std::string& l) { log(l); }, stop);
  if (stop && stop()) throw ReadingStopped();  // asked while the model was built
  book_ = ValidationBook(training().earlyStopPatience, parts_.vocabularySize());
  openRun(resumeFrom);
  resume_.reset();  // its tensors are the run's now
  if (!resumeFrom.empty()) broadcastParameters(parts_.model->parameters(), collective_);
  outcome_.runId = journal_.runId();
  outcome_.latestCheckpoint = RunPaths::latest(project_.folder, outcome_.runId);
  outcome_.bestCheckpoint = RunPaths::best(project_.folder, outcome_.runId);
  journal_.startRunning();
  publish_(StartedEvent{outcome_.runId, counters_.step, !resumeFrom.empty(),
                        RunPaths::checkpointFolder(project_.folder, outcome_.runId)});
  log("training " + parts_.description(project_, collective_));
}

void Session::openRun(const std::string& resumeFrom) {
  // Rank 0 writes the record; the journals of the other ranks do nothing but learn its id.
  if (!resume_) {
    journal_.create(project_, parts_.model->parameterCount());
  } else {
    const RunRecord record = journal_.reopen(resume_->checkpoint->snapshot(), resumeFrom);
    continueRun(*resume_->checkpoint, project_, parts_, collective_.rank(), collective_.size(),
                counters_, book_, [this](const std::string& line) { log(line); });
    journal_.rewindTo(counters_.step, record);  // those steps are trained again
    journal_.recordSettings(projectToYaml(resume_->recorded), record);
    if (journal_.writes()) {
      log("resumed run " + std::to_string(journal_.runId()) + " at step " +
          std::to_string(counters_.step));
      for (const std::string& said : {resume_->settingsNote, resume_->modelNote}) {
        if (!said.empty()) note(said);
      }
    }
  }
  journal_.shareRunId(collective_);
}

bool Session::trainStep() {
  // What a step interrupted by a stop gives back: the data's position and the masks' draw.
  const std::string batcherBefore = parts_.batcher->saveState();
  const GeneratorStates generatorsBefore = generatorStatesOn(parts_.device);
  std::vector<ObjectiveWindow> windows =
      parts_.nextWindows(training().carryState, [this] { return done(); });
  if (windows.empty()) return false;
  const auto started = Clock::now();
  int64_t symbols = 0;
  for (const auto& window : windows) symbols += window.inputs.numel();
  UpdateRule& rule = *parts_.rule;
  const double rate = rule.usesLearningRate() ? parts_.schedule->rate(counters_.step) : 0.0;

  ObjectiveOptions options = parts_.objectiveOptions(training().bf16);
  // One process stops inside a long step (a Hessian-free step over many windows); ranks end
  // the step together and agree after it.
  if (!ranked_) options.stop = &stop_;
  WindowObjective objective(*parts_.model, collective_, parts_.state, std::move(windows), options);
  UpdateResult result;
  try {
    result = rule.update(objective, rate);
  } catch (const UpdateInterrupted&) {
    // The step is abandoned whole: the run stops after its last whole step, and a resume
    // takes the same windows and masks again.
    parts_.batcher->restoreState(batcherBefore);
    restoreGeneratorStatesOn(parts_.device, generatorsBefore);
    log("stopped inside step " + std::to_string(counters_.step + 1) +
        "; it will be taken again on resume");
    return false;
  }
  parts_.state = objective.endState();

  std::vector<double> rankSeconds;
  if (ranked_) {
    const double mine = std::chrono::duration<double>(Clock::now() - started).count() -
                        (parts_.buckets ? parts_.buckets->waitSeconds() : 0.0);
    const StepAgreement agreed = agreeAfterStep(collective_, 0.0, stop_.stopRequested(), mine);
    agreedStop_ = agreed.stop;
    rankSeconds = agreed.seconds;
  }
  requireSoundUpdate(result, counters_.step + 1, rate, rule.usesLearningRate());
  ++counters_.step;
  counters_.symbols += symbols;
  // With ranks, the step took as long as its slowest rank worked: every rank counts the same
  // time, so a time budget (training.max_seconds) ends them all after the same step.
  const double seconds = ranked_ ? *std::max_element(rankSeconds.begin(), rankSeconds.end())
                                 : std::chrono::duration<double>(Clock::now() - started).count();
  counters_.wallSeconds += seconds;
  report(result, rate, {symbols, seconds, rankSeconds, training().batchSize, parts_.shard.count});
  if (result.stalled) {
    // Every rank reaches the same λ from the same reduced figures: they stop together.
    stalled_ = true;
    log("stalled at step " + std::to_string(counters_.step) + ": " + runEndReason(RunEnd::Stalled) +
        "; the run ends here");
  }
  return true;
}

void Session::report(const UpdateResult& result, double rate, const StepTiming& timing) {
  const double eta =
      runEtaSeconds(static_cast<double>(counters_.step), static_cast<double>(parts_.totalSteps),
                    counters_.wallSeconds, training().maxSeconds);
  const StepEvent event = stepEvent(result, rate, counters_, parts_.epochNow(), timing, eta);
  publish_(event);
  book_.addStep(event.bitsPerSymbol, timing.seconds);
  journal_.recordStep(event, parts_.rule->usesLearningRate());
}

void Session::validate() {
  const auto started = Clock::now();
  UpdateRule& rule = *parts_.rule;
  const bool averaged = rule.swapEvaluationWeights();  // NT-ASGD evaluates its average
  JobContext job = evaluationJob("validating");
  const LossFigures figures =
      parts_.evaluate(TrainingData::HeldOut::Valid, training().batchSize, training().bptt,
                      training().validationSymbols, collective_, job);
  const double bpc = figures.bitsPerSymbol;
  requireFiniteValidation(bpc, counters_.step);
  const ValidationBook::Entry entry = book_.record(bpc, figures.errorRate);
  if (entry.best) {
    journal_.setBestValid(bpc);
    saveCheckpoint("best");
  }
  if (averaged) rule.swapEvaluationWeights();
  rule.afterValidation(figures.nats);
  parts_.schedule->onValidation(figures.nats);
  journal_.recordValidation(figures, counters_.step, parts_.epochNow(), counters_.wallSeconds);
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  publish_(ValidationEvent{counters_.step, parts_.epochNow(), figures, entry.best, seconds,
                           book_.addValidationSeconds(seconds)});
  if (entry.note) note(*entry.note);
  if (entry.stop) {
    log("early stopping: " + std::to_string(book_.badValidations()) +
        " validations without improvement");
  }
  if (training().stopWhenSolved && figures.errorRate >= 0 &&
      validationShowsSolved(figures.errorRate, figures.sequences)) {
    book_.stopSolved();
    log("solved at step " + std::to_string(counters_.step) +
        ": the run ends here (training.stop_when_solved)");
  }
}

void Session::saveCheckpoint(const std::string& kind) {
  // Every rank takes part (the whole batch's state and every rank's generator are gathered);
  // rank 0 writes.
  const ModelState whole = gatherState(parts_.state, collective_);
  const GeneratorStates ranks =
      ranked_ ? gatherRankGenerators(parts_.device, collective_) : GeneratorStates{};
  const std::string path = kind == "best" ? outcome_.bestCheckpoint : outcome_.latestCheckpoint;
  if (!journal_.writes()) {
    collective_.sum(torch::zeros({1}));  // the file is written: others may read it
    return;
  }
  TrainingSnapshot snapshot =
      runSnapshot(project_, parts_, counters_, book_, outcome_.runId, journal_.projectId());
  snapshot.rankRngStates = ranks.cpu;
  snapshot.rankGpuRngStates = ranks.gpu;
  snapshot.runName = journal_.runName();
  Checkpoint::save(path, snapshot, *parts_.model, parts_.rule.get(), &whole);
  if (ranked_) collective_.sum(torch::zeros({1}));
  journal_.recordCheckpoint(kind, path, counters_.step, book_.best());
  publish_(CheckpointEvent{counters_.step, kind, path});
}

void Session::finish() {
  // The test figure is the best-by-validation model's, as the papers report it; the other
  // ranks take rank 0's weights (their machines need not see its files).
  if (journal_.writes()) parts_.loadWeights(outcome_.bestCheckpoint);
  broadcastParameters(parts_.model->parameters(), collective_);
  // The whole test split (validation_symbols shortens validations only): the figure `mrnn eval
  // --split test` gives for the same checkpoint.
  JobContext job = evaluationJob("testing");
  const LossFigures test =
      parts_.evaluate(TrainingData::HeldOut::Test, project_.evaluation.batchSize,
                      project_.evaluation.bptt, 0, collective_, job);
  outcome_.test = test.bitsPerSymbol;
  outcome_.testErrorRate = test.errorRate;
  outcome_.testSequences = test.sequences;
  journal_.flush();  // the test points come after the training's
  journal_.recordTest(test, counters_.step, parts_.epochNow(), counters_.wallSeconds);
  log("test: " +
      (test.squaredError ? "mean squared error " + std::to_string(test.nats)
                         : std::to_string(test.bitsPerSymbol) + " bits/symbol") +
      (test.words > 0 ? ", " + std::to_string(test.bitsPerWord) + " bits/word" : "") +
      (test.errorRate >= 0 ? ", " + problemVerdict(test.errorRate, test.sequences) : ""));
}

void Session::end() {
  outcome_.stopped = stopNow() && !done() && !book_.stopped() && !stalled_;
  // A run that ends between validations is validated at its last step.
  const int64_t every = training().validateEvery;
  if (!outcome_.stopped && (every <= 0 || counters_.step % every != 0)) validate();
  saveCheckpoint("latest");
  journal_.updateProgress(counters_.step, counters_.wallSeconds);
  if (outcome_.stopped) {
    journal_.flush();
    journal_.setStatus(RunStatus::Stopped, "stopped at step " + std::to_string(counters_.step));
  } else {
    finish();
    journal_.flush();
    // A run no better than a uniform guess is finished, but says so where its status is read.
    const auto uselessNote =
        endedWorseThanUniformNote(outcome_.test > 0.0 ? outcome_.test : book_.best(),
                                  parts_.vocabularySize(), parts_.rule->usesLearningRate());
    if (uselessNote) note(*uselessNote);
    journal_.setStatus(RunStatus::Finished, uselessNote.value_or(""));
    outcome_.finished = true;
  }
  // A stop is honoured within a second; a finished run's figures are worth a minute's wait
  // for a database another program holds, unless a stop is asked meanwhile.
  if (outcome_.stopped) {
    journal_.settle(std::chrono::seconds(1));
  } else {
    journal_.settle(std::chrono::minutes(1), [this] { return stop_.stopRequested(); });
  }
  outcome_.steps = counters_.step;
  outcome_.bestValid = book_.best();
  const RunEnd ending = book_.solved()    ? RunEnd::Solved
                        : book_.stopped() ? RunEnd::EarlyStopping
                        : stalled_        ? RunEnd::Stalled
                        : budgetSpent()   ? RunEnd::TimeBudget
                                          : RunEnd::Length;
  outcome_.end = ending;
  publish_(FinishedEvent{counters_.step, outcome_.stopped, book_.best(), outcome_.test,
                         counters_.wallSeconds, outcome_.testErrorRate, outcome_.testSequences,
                         ending});
}

// The loop, as llm.c reads: step, validate when due, checkpoint when due; then end the run.
TrainingOutcome Session::run(const std::string& resumeFrom) {
  try {
    setUp(resumeFrom);
    int64_t sinceCheckpoint = 0;
    while (!stopNow()) {
      if (stop_.pauseRequested() && !ranked_) {
        journal_.flush();
        journal_.setStatus(RunStatus::Paused);
        log("paused at step " + std::to_string(counters_.step));
        stop_.waitWhilePaused();
        journal_.setStatus(RunStatus::Running);
        if (stop_.stopRequested()) break;
        log("resumed at step " + std::to_string(counters_.step));
      }
      if (!trainStep()) break;
      parts_.threads->poll();
      ++sinceCheckpoint;
      const int64_t every = training().validateEvery;
      if (every > 0 && counters_.step % every == 0) validate();
      if (book_.stopped() || stalled_) break;
      if (training().checkpointEvery > 0 && sinceCheckpoint >= training().checkpointEvery) {
        saveCheckpoint("latest");
        sinceCheckpoint = 0;
      }
      journal_.updateProgress(counters_.step, counters_.wallSeconds);
    }
    end();
  } catch (const ReadingStopped&) {
    // Before a run was created or continued: nothing to record, nothing to save.
    outcome_.stopped = true;
    FinishedEvent stopped;
    stopped.stopped = true;
    stopped.beforeStart = true;
    publish_(stopped);
  } catch (const std::exception& error) {
    outcome_.failed = true;
    outcome_.databaseHeld = dynamic_cast<const StoreBusyError*>(&error) != nullptr;
    outcome_.reason = trainingFailureText(error, parts_.device, counters_.step, parts_.sizeText);
    outcome_.steps = counters_.step;
    journal_.fail(outcome_.reason);
    publish_(FailedEvent{journal_.runId(), counters_.step, outcome_.reason});
  }
  return outcome_;
}

}  // namespace

Trainer::Trainer(Project project, Publish publish, Collective* collective)
    : project_(std::move(project)), publish_(std::move(publish)), collective_(collective) {}

TrainingOutcome Trainer::run(const StopToken& stop, const std::string& resumeFrom,
                             const RunLength& length) {
  Session session(project_, publish_, stop, collective_, length);
  return session.run(resumeFrom);
}

}  // namespace mrnn::engine
