#include "engine/training/trainer.h"

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <thread>

#include "engine/config/model_changes.h"
#include "engine/config/model_names.h"
#include "engine/config/parameter_count.h"
#include "engine/data/stream_batcher.h"
#include "engine/devices/compute_device.h"
#include "engine/devices/torch_threads.h"
#include "engine/models/language_model.h"
#include "engine/optim/lr_schedule.h"
#include "engine/optim/update_rule_factory.h"
#include "engine/runtime/job_context.h"
#include "engine/runtime/machine_resources.h"
#include "engine/store/imported_run.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_eta.h"
#include "engine/store/run_paths.h"
#include "engine/store/text_format.h"
#include "engine/training/checkpoint.h"
#include "engine/training/collective.h"
#include "engine/training/data_parallel.h"
#include "engine/training/evaluator.h"
#include "engine/training/generator_states.h"
#include "engine/training/gradient_buckets.h"
#include "engine/training/held_out_note.h"
#include "engine/training/library_error_text.h"
#include "engine/training/local_collective.h"
#include "engine/training/problem_score.h"
#include "engine/training/resumed_training.h"
#include "engine/training/run_test_evaluation.h"
#include "engine/training/training_data.h"
#include "engine/training/training_preflight.h"
#include "engine/training/window_objective.h"
#include "engine/training/window_tensor.h"

namespace mrnn::engine {
namespace {

using Clock = std::chrono::steady_clock;

// One run's working set, so the steps of Trainer::run() read as a list.
class Session {
 public:
  Session(const Project& project, const Trainer::Publish& publish, RunControl& control,
          Collective* collective, const RunLength& length)
      : project_(project),
        training_(project_.training),
        length_(length),
        publish_(publish),
        control_(control),
        local_(collective ? nullptr : std::make_unique<LocalCollective>()),
        collective_(collective ? *collective : *local_),
        ranked_(collective_.size() > 1),
        writer_(collective_.rank() == 0) {}

  TrainingOutcome run(const std::string& resumeFrom);

 private:
  void setUp(const std::string& resumeFrom);
  std::string outOfMemoryReason() const;
  int64_t largestHiddenSize() const;
  bool trainStep();  // false: the run is over (or stopping)
  // The next update's windows, as many as the rule reads (fewer where the run's last epoch
  // ends); none when the run is over.
  std::vector<ObjectiveWindow> takeWindows();
  // The step's event and metrics.
  void report(const UpdateResult& result, double rate, int64_t symbols, double seconds,
              const std::vector<double>& rankSeconds);
  void validate();
  void saveCheckpoint(const std::string& kind);
  void finish();
  void flushMetrics();
  void metric(const std::string& name, double value);
  // The run's id from rank 0 (and, to rank 0, that every rank is here).
  void joinRanks();
  // A resumed run: weights, optimiser, this rank's rows of the state, position, schedule,
  // generator and counters from `checkpoint` (checked against the model and vocabulary).
  void continueFrom(Checkpoint& checkpoint);
  void restoreGenerator(const TrainingSnapshot& snapshot);
  // A resume trains with the settings its run started with (resumedTraining), saying which
  // ones the project now gives otherwise.
  void adoptRunSettings(const std::string& resumeFrom);
  // Whether the loop should stop before the next step; with ranks, as they all agreed.
  bool stopNow() const {
    return (ranked_ ? agreedStop_ : control_.stopRequested()) || control_.stepLimitReached(step_);
  }
  void log(const std::string& message) { publish_(LogEvent{message}); }
  void note(const std::string& message) { publish_(LogEvent{"note: " + message, true}); }
  // The engine's job interface for the evaluations inside the run: their progress goes out
  // as PhaseEvents (about one per percent). Never cancelled: a stop waits for the step.
  JobContext evaluationJob(const std::string& phase);
  bool done() const;
  double epochNow() const {
    return static_cast<double>(batcher_->epoch()) + batcher_->epochProgress();
  }

  Project project_;  // its training section becomes the run's own when it resumes
  const TrainingConfig& training_;
  const RunLength length_;  // a resume's new length, where the caller gives one
  // The checkpoint a resume continues from: opened first (its settings are the run's), read
  // into the session once it is built, then let go.
  std::optional<Checkpoint> resumed_;
  // What the project now sets otherwise than the resumed run: said once the run is ours (a
  // resume refused for another writer says only that).
  std::string settingsNote_;
  std::string modelNote_;  // a resume whose project's model changed since the run started
  // The project the resumed run started with, its training now the session's: what the run's
  // record says once the run is ours (a new length, another device).
  std::optional<Project> recorded_;
  const Trainer::Publish& publish_;
  RunControl& control_;
  std::unique_ptr<LocalCollective> local_;  // one process: the collective of one rank
  Collective& collective_;
  const bool ranked_;  // several processes train the batch (data parallel)
  const bool writer_;  // rank 0 (or the only process): writes the store and checkpoints
  StreamShard shard_;
  std::unique_ptr<GradientBuckets> buckets_;
  bool agreedStop_ = false;
  TrainingOutcome outcome_;

  torch::Device device_ = torch::kCPU;
  // "hidden size H, N parameters, batch B x bptt T": what memory errors name.
  std::string sizeText_;
  std::unique_ptr<TrainingData> data_;
  std::unique_ptr<LanguageModel> model_;
  std::unique_ptr<UpdateRule> rule_;
  std::unique_ptr<WindowSource> batcher_;
  std::unique_ptr<LrSchedule> schedule_;
  std::unique_ptr<RunCatalogue> catalogue_;
  RunStore* store_ = nullptr;
  RunLock lock_;  // this process is the run's one writer while it is held
  ModelState state_;
  // training.threads 0 on one process's CPU: the threads follow the machine's load.
  std::shared_ptr<LoadFollowingThreads> threads_;
  int64_t step_ = 0;
  int64_t symbols_ = 0;  // training symbols read so far, carried across resumes
  int64_t totalSteps_ = 0;
  double bestValid_ = 0.0;
  // The training bits since the last validation, for worseThanUniformNote (said once a run).
  double trainBitsSince_ = 0.0;
  int64_t trainStepsSince_ = 0;
  bool saidWorseThanUniform_ = false;
  int64_t badValidations_ = 0;
  double wallSeconds_ = 0.0;  // training time, carried across resumes
  // This session's training steps and validations, for the validations' share of its time.
  double sessionStepSeconds_ = 0.0;
  double sessionValidSeconds_ = 0.0;
  std::vector<MetricPoint> pending_;
  bool earlyStopped_ = false;
  const std::atomic<bool> neverCancelled_{false};
};

JobContext Session::evaluationJob(const std::string& phase) {
  auto last = std::make_shared<JobProgress>(JobProgress{-1.0, ""});
  JobContext job(
      [this, last](const JobProgress& progress) {
        if (progress.fraction - last->fraction < 0.01 && progress.phase == last->phase &&
            progress.fraction < 1.0) {
          return;
        }
        *last = progress;
        publish_(PhaseEvent{progress.fraction, progress.phase});
      },
      neverCancelled_);
  return job.part(0.0, 1.0, phase);
}

bool Session::done() const {
  if (training_.maxSeconds > 0 && wallSeconds_ >= training_.maxSeconds) return true;
  if (training_.maxSteps > 0) return step_ >= training_.maxSteps;
  return batcher_->epoch() >= training_.epochs;
}

void Session::metric(const std::string& name, double value) {
  pending_.push_back({name, step_, epochNow(), wallSeconds_, value});
}

void Session::flushMetrics() {
  if (pending_.empty()) return;
  if (!writer_) {
    pending_.clear();
    return;
  }
  store_->appendMetrics(outcome_.runId, pending_);
  pending_.clear();
}

void Session::setUp(const std::string& resumeFrom) {
  if (!project_.hasData) {
    throw std::runtime_error("the project has no 'data:' section: name a training corpus first");
  }
  if (!resumeFrom.empty()) adoptRunSettings(resumeFrom);
  device_ = resolveComputeDevice(training_.device, "training.device");
  if (training_.bf16 && !device_.is_cuda()) {
    throw std::runtime_error(
        "training.bf16: bf16 autocast needs a GPU, and this run's device is '" + training_.device +
        "': choose a GPU (--device cuda, or the training panel's device) "
        "or set bf16: false");
  }
  // A GPU's or a rank's threads stay fixed: all the processors, unless the file says.
  const bool follow = device_.is_cpu() && !ranked_;
  threads_ = torchThreads(
      follow || training_.threads > 0 ? training_.threads : chooseThreadCount(0),
      [this](const std::string& line) { log(line); },
      {"training", "training.threads: 0 follows the load"}, 0.25);
  torch::manual_seed(training_.seed);

  data_ = std::make_unique<TrainingData>(project_, [this](const std::string& line) { log(line); });
  const int64_t vocab = data_->vocabulary().size();
  if (project_.model.input.vocabSize > 0 && project_.model.input.vocabSize != vocab) {
    log("the corpus has " + std::to_string(vocab) + " symbols; model.input.vocab_size (" +
        std::to_string(project_.model.input.vocabSize) + ") is replaced by it");
  }
  {
    const int64_t parameters = summarizeModel(project_.model, vocab).totalParameters;
    const double bytes = trainingBytes(project_.model, parameters, vocab, training_);
    sizeText_ = "hidden size " + std::to_string(largestHiddenSize()) + ", " +
                groupedInteger(parameters) + " parameters, batch " +
                std::to_string(training_.batchSize) + " x bptt " + std::to_string(training_.bptt);
    const std::string what = "training this model (" + sizeText_ + ")";
    const std::string advice = "Make the layers smaller (hidden_size) or the batch or bptt shorter";
    if (device_.is_cpu()) {
      requireMemory(bytes, what, advice);
    } else {
      // The weights are made on the host, then moved; the windows' activations live on the GPU.
      requireMemory(8.0 * static_cast<double>(parameters), what, advice);
      requireGpuMemory(device_, bytes, what, advice);
    }
  }
  shard_ = streamShard(training_.batchSize, collective_.rank(), collective_.size());
  model_ = std::make_unique<LanguageModel>(project_.model, vocab);
  model_->to(device_);
  model_->train();
  rule_ = makeUpdateRule(training_, model_->parameters());
  broadcastParameters(model_->parameters(), collective_);
  // Each rank draws its own dropout masks; rank 0 draws as one process would.
  if (collective_.rank() > 0) torch::manual_seed(training_.seed + 7919 * collective_.rank());
  // A one-window update's gradient is summed over the ranks while its backward runs.
  if (ranked_ && rule_->shape().gradientWindows == 1) {
    buckets_ = std::make_unique<GradientBuckets>(model_->parameters(), collective_);
  }

  batcher_ = data_->windows(training_);
  const int64_t windowsPerStep = rule_->shape().gradientWindows;
  const int64_t stepsPerEpoch =
      std::max<int64_t>(1, (batcher_->windowsPerEpoch() + windowsPerStep - 1) / windowsPerStep);
  totalSteps_ = training_.maxSteps > 0 ? training_.maxSteps : training_.epochs * stepsPerEpoch;
  schedule_ = std::make_unique<LrSchedule>(
      training_.schedule, baseLearningRate(training_.optimizer), totalSteps_, stepsPerEpoch);
  state_ = model_->initialState(shard_.count);

  if (writer_) {
    catalogue_ = std::make_unique<RunCatalogue>(project_.folder, RunCatalogue::Access::ReadWrite);
    store_ = &catalogue_->store();
  }
  if (!writer_) {
    joinRanks();
    if (resumed_) continueFrom(*resumed_);
  } else if (resumeFrom.empty()) {
    RunRecord record;
    record.name = project_.runName.empty() ? defaultRunName(project_.model) : project_.runName;
    record.modelType = modelTypeSummary(project_.model);
    record.parameters = model_->parameterCount();
    record.configYaml = projectToYaml(project_);
    record.startedAt = utcTimestamp();
    const int64_t id = store_->createRun(record);
    lock_ = catalogue_->lockForWriting(id);
    outcome_.runId = id;
  } else {
    Checkpoint& checkpoint = *resumed_;
    const TrainingSnapshot& s = checkpoint.snapshot();
    checkCheckpointBelongs(s, resumeFrom, *catalogue_);
    const auto record = store_->run(s.runId);
    if (!record) {
      throw std::runtime_error("checkpoint '" + resumeFrom + "' belongs to run " +
                               std::to_string(s.runId) + ", which is not in " + store_->path());
    }
    // Before anything of the run is read, written or locked: an imported run holds weights,
    // not a training run's state (its data position, optimiser) to go on from.
    if (isImportedRun(*record)) {
      throw std::runtime_error("run " + std::to_string(s.runId) + " (" + record->name +
                               ") was imported: it has weights but no training state to "
                               "resume from; train a new run to train further");
    }
    // One writer per run.
    lock_ = catalogue_->lockForWriting(s.runId);
    continueFrom(checkpoint);
    outcome_.runId = s.runId;
    store_->deleteMetricsAfter(outcome_.runId, step_);  // those steps are trained again
    // The test figure was the model's as it ended; training on, it tests again at its end.
    if (record->testResult) store_->clearTestResult(outcome_.runId);
    log("resumed run " + std::to_string(s.runId) + " at step " + std::to_string(step_));
    if (!settingsNote_.empty()) note(settingsNote_);
    if (!modelNote_.empty()) note(modelNote_);
    if (recorded_) {
      recorded_->training = training_;
      const std::string yaml = projectToYaml(*recorded_);
      if (record->configYaml != yaml) store_->setConfig(s.runId, yaml);
    }
  }
  resumed_.reset();  // its tensors are the session's now
  if (writer_) joinRanks();
  if (!resumeFrom.empty()) broadcastParameters(model_->parameters(), collective_);
  outcome_.latestCheckpoint = RunPaths::latest(project_.folder, outcome_.runId);
  outcome_.bestCheckpoint = RunPaths::best(project_.folder, outcome_.runId);
  if (writer_) {
    std::filesystem::create_directories(
        RunPaths::checkpointFolder(project_.folder, outcome_.runId));
    store_->setStatus(outcome_.runId, RunStatus::Running);
  }
  publish_(StartedEvent{outcome_.runId, step_, !resumeFrom.empty(),
                        RunPaths::checkpointFolder(project_.folder, outcome_.runId)});
  log("training " + modelTypeSummary(project_.model) + " (" +
      std::to_string(model_->parameterCount()) + " parameters) on " + data_->describe() +
      ", vocabulary " + std::to_string(vocab) + ", device " + describeComputeDevice(device_) +
      (ranked_
           ? ", rank " + std::to_string(collective_.rank()) + " of " +
                 std::to_string(collective_.size()) + " (streams " + std::to_string(shard_.begin) +
                 "-" + std::to_string(shard_.begin + shard_.count - 1) + ")"
           : std::string()));
}

void Session::joinRanks() {
  // Rank 0 made or opened the run: every rank learns its id (and rank 0 that all are here).
  auto id = torch::full({1}, static_cast<double>(outcome_.runId), torch::kDouble);
  collective_.broadcast(id, 0);
  outcome_.runId = static_cast<int64_t>(id.item<double>());
}

void Session::continueFrom(Checkpoint& checkpoint) {
  const TrainingSnapshot& s = checkpoint.snapshot();
  checkpoint.checkCompatible(project_.model, data_->vocabulary());
  model_->to(torch::kCPU);
  checkpoint.loadModel(*model_);
  model_->to(device_);
  if (!checkpoint.loadRule(*rule_)) {
    log("the checkpoint holds no optimiser state; the optimiser starts afresh");
  }
  // The checkpoint holds the whole batch's state, whatever the rank count that wrote it.
  ModelState whole = model_->initialState(training_.batchSize);
  state_ = checkpoint.loadState(whole, *model_) ? stateRows(whole, shard_.begin, shard_.count)
                                                : model_->initialState(shard_.count);
  batcher_->restoreState(s.batcherState);
  schedule_->restoreState(s.scheduleState);
  restoreGenerator(s);
  step_ = s.step;
  symbols_ = s.symbols;
  bestValid_ = s.bestValid;
  badValidations_ = s.badValidations;
  wallSeconds_ = s.wallSeconds;
}

void Session::adoptRunSettings(const std::string& resumeFrom) {
  resumed_.emplace(Checkpoint::open(resumeFrom));
  const TrainingSnapshot& s = resumed_->snapshot();
  TrainingConfig started;
  try {
    recorded_ = parseProject(s.projectYaml, resumeFrom + " (stored project)");
    started = recorded_->training;
  } catch (const std::exception& error) {
    // Continuing under the project's settings would change the run half-way (its length, its
    // optimiser) with only a note to say so: refused, with the way on.
    throw CheckpointError("run " + std::to_string(s.runId) +
                          "'s own settings cannot be read from its checkpoint (" + error.what() +
                          "); a resume keeps a run's settings and will not swap in the "
                          "project's: start a new run from the project instead");
  }
  std::vector<std::string> differences;
  project_.training = resumedTraining(project_.training, started, length_, &differences);
  settingsNote_ = keptSettingsNote(s.runId, differences);
  // The model too is the run's own: a layer added in the composer since is a new run's.
  const std::string projectModel = modelSectionYaml(project_.model);
  if (projectModel != s.modelYaml) {
    modelNote_ = "run " + std::to_string(s.runId) + " continues as the " +
                 modelTypeSummary(recorded_->model) +
                 " it started as; the project's model has changed since (" +
                 modelChangeSummary(s.modelYaml, projectModel) + "), and a new run trains that";
    project_.model = recorded_->model;
  }
}

void Session::restoreGenerator(const TrainingSnapshot& s) {
  at::Generator generator = at::detail::getDefaultCPUGenerator();  // a handle: shared state
  const int rank = collective_.rank();
  const int ranks = collective_.size();
  if (s.rankRngStates.defined() && s.rankRngStates.size(0) == ranks) {
    generator.set_state(s.rankRngStates[rank].contiguous());
  } else if (rank == 0 && s.rngState.defined()) {
    generator.set_state(s.rngState);
  } else if (rank > 0) {
    // Another rank count wrote it: this rank's masks start a fresh, still reproducible draw.
    torch::manual_seed(training_.seed + 7919 * rank + 104729 * s.step);
  }
  // Masks drawn on a GPU come from its own generator, restored as the CPU's is above: each
  // rank its own when as many ranks wrote the checkpoint, one process's (rank 0 of several
  // takes it), otherwise a fresh, still reproducible draw.
  if (!device_.is_cpu()) {
    at::Generator gpu = at::globalContext().defaultGenerator(device_);
    if (s.rankGpuRngStates.defined() && s.rankGpuRngStates.size(0) == ranks) {
      gpu.set_state(s.rankGpuRngStates[rank].contiguous());
    } else if (rank == 0 && s.gpuRngState.defined()) {
      gpu.set_state(s.gpuRngState);
    } else {
      gpu.set_current_seed(training_.seed + 7919 * rank + 104729 * s.step);
    }
  }
}

std::vector<ObjectiveWindow> Session::takeWindows() {
  std::vector<ObjectiveWindow> windows;
  const auto wanted = static_cast<size_t>(rule_->shape().gradientWindows);
  while (windows.size() < wanted) {
    const std::string before = batcher_->saveState();
    const Window window = batcher_->next();
    if (done()) {
      batcher_->restoreState(before);  // that window belongs to the next epoch
      break;
    }
    ObjectiveWindow objective;
    objective.inputs = windowTensor(window.inputs, window.steps, window.batch, device_);
    objective.targets = windowTensor(window.targets, window.steps, window.batch, device_);
    if (!window.lossMask.empty()) {
      objective.mask = windowTensor(window.lossMask, window.steps, window.batch, device_);
    }
    objective.values = valuesTensor(window.inputValues, window.steps, window.batch, device_);
    objective.targetValues = valuesTensor(window.targetValues, window.steps, window.batch, device_);
    objective.freshState = window.epochStart || window.freshState || !training_.carryState;
    windows.push_back(std::move(objective));
  }
  return windows;
}

bool Session::trainStep() {
  // What a step interrupted by a stop gives back: the data's position and the masks' draw.
  const std::string batcherBefore = batcher_->saveState();
  const GeneratorStates generatorsBefore = generatorStatesOn(device_);
  std::vector<ObjectiveWindow> windows = takeWindows();
  if (windows.empty()) return false;
  const auto started = Clock::now();
  int64_t symbols = 0;
  for (const auto& window : windows) symbols += window.inputs.numel();
  const double rate = rule_->usesLearningRate() ? schedule_->rate(step_) : 0.0;

  ObjectiveOptions options;
  options.shard = shard_;
  options.shape = rule_->shape();
  options.bf16 = training_.bf16;
  options.buckets = buckets_.get();
  // One process stops inside a long step (a Hessian-free step over many windows); ranks end
  // the step together and agree after it.
  if (!ranked_) options.interrupted = [this] { return control_.stopRequested(); };
  WindowObjective objective(*model_, collective_, state_, std::move(windows), options);
  UpdateResult result;
  try {
    result = rule_->update(objective, rate);
  } catch (const UpdateInterrupted&) {
    // The step is abandoned whole: the run stops after its last whole step, and a resume
    // takes the same windows and masks again.
    batcher_->restoreState(batcherBefore);
    restoreGeneratorStatesOn(device_, generatorsBefore);
    log("stopped inside step " + std::to_string(step_ + 1) + "; it will be taken again on resume");
    return false;
  }
  state_ = objective.endState();

  std::vector<double> rankSeconds;
  if (ranked_) {
    const double mine = std::chrono::duration<double>(Clock::now() - started).count() -
                        (buckets_ ? buckets_->waitSeconds() : 0.0);
    const StepAgreement agreed = agreeAfterStep(collective_, 0.0, control_.stopRequested(), mine);
    agreedStop_ = agreed.stop;
    rankSeconds = agreed.seconds;
  }
  if (!result.applied) {
    const bool lossBad = !std::isfinite(result.loss);
    const double bad = lossBad ? result.loss : result.gradientNorm;
    throw std::runtime_error(
        std::string(lossBad ? "the training loss" : "the gradient") + " became " +
        (std::isnan(bad) ? "NaN" : "infinite") + " at step " + std::to_string(step_ + 1) +
        (rule_->usesLearningRate() ? " (learning rate " + std::to_string(rate) + ")"
                                   : std::string()) +
        "; the run stopped before the update, so its last good checkpoint is intact. Lower "
        "the learning rate or clip gradients (training.clip_norm)");
  }
  if (!result.weightsFinite) {
    throw std::runtime_error(
        "the update of step " + std::to_string(step_ + 1) + " (learning rate " +
        std::to_string(rate) +
        ") made weights NaN or infinite; they were not saved (the run's checkpoints, if "
        "any, are from before). A tiny optimizer.epsilon (it divides by the gradient's root "
        "mean square) or too high a learning rate does this");
  }
  ++step_;
  symbols_ += symbols;
  // With ranks, the step took as long as its slowest rank worked: every rank counts the same
  // time, so a time budget (training.max_seconds) ends them all after the same step.
  const double seconds = ranked_ ? *std::max_element(rankSeconds.begin(), rankSeconds.end())
                                 : std::chrono::duration<double>(Clock::now() - started).count();
  wallSeconds_ += seconds;
  sessionStepSeconds_ += seconds;
  report(result, rate, symbols, seconds, rankSeconds);
  return true;
}

void Session::report(const UpdateResult& result, double rate, int64_t symbols, double seconds,
                     const std::vector<double>& rankSeconds) {
  StepEvent event;
  event.step = step_;
  event.epoch = epochNow();
  event.loss = result.loss;
  event.bitsPerSymbol = result.loss / std::log(2.0);
  event.learningRate = rate;
  event.gradientNorm = result.gradientNorm;
  event.symbolsPerSecond = static_cast<double>(symbols) / std::max(seconds, 1e-9);
  event.symbols = symbols_;
  event.etaSeconds = runEtaSeconds(static_cast<double>(step_), static_cast<double>(totalSteps_),
                                   wallSeconds_, training_.maxSeconds);
  event.wallSeconds = wallSeconds_;
  const int64_t streamSymbols = symbols / std::max<int64_t>(1, training_.batchSize) * shard_.count;
  for (size_t r = 0; r < rankSeconds.size(); ++r) {
    // Each rank's own rate: its streams over its own work, the wait for the others excluded.
    event.rankSymbolsPerSecond.push_back(static_cast<double>(streamSymbols) /
                                         std::max(rankSeconds[r], 1e-9));
  }
  event.update = result.figures;
  publish_(event);
  trainBitsSince_ += event.bitsPerSymbol;
  ++trainStepsSince_;
  metric(metric::kTrainLoss, result.loss);
  metric(metric::kTrainBits, event.bitsPerSymbol);
  if (rule_->usesLearningRate()) metric(metric::kLearningRate, rate);
  metric(metric::kGradientNorm, result.gradientNorm);
  metric(metric::kSymbolsPerSecond, event.symbolsPerSecond);
  metric(metric::kSymbols, static_cast<double>(symbols_));
  for (const auto& figure : result.figures) metric(figure.name, figure.value);
  for (size_t r = 0; r < event.rankSymbolsPerSecond.size(); ++r) {
    metric(metric::rankSymbolsPerSecond(static_cast<int>(r)), event.rankSymbolsPerSecond[r]);
  }
  if (pending_.size() >= 100) flushMetrics();
}

void Session::validate() {
  const auto started = Clock::now();
  const bool averaged = rule_->swapEvaluationWeights();  // NT-ASGD evaluates its average
  EvalOptions options;
  options.batch = training_.batchSize;
  options.bptt = training_.bptt;
  options.maxSymbols = training_.validationSymbols;
  options.device = device_;
  options.collective = &collective_;
  JobContext job = evaluationJob("validating");
  const LossFigures figures = data_->evaluate(TrainingData::HeldOut::Valid, *model_, options, &job);
  const double bpc = figures.bitsPerSymbol;
  if (!std::isfinite(bpc)) {
    // Never a "best" checkpoint: the run ends with the last good one as it is.
    throw std::runtime_error("validation at step " + std::to_string(step_) + " gave " +
                             (std::isnan(bpc) ? "NaN" : "an infinite loss") +
                             "; nothing was saved from this step, so the last good checkpoint "
                             "is intact");
  }
  const bool best = bestValid_ <= 0.0 || bpc < bestValid_;
  if (best) {
    bestValid_ = bpc;
    badValidations_ = 0;
    if (writer_) store_->setBestValid(outcome_.runId, bpc);
    saveCheckpoint("best");
  } else {
    ++badValidations_;
  }
  if (averaged) rule_->swapEvaluationWeights();
  rule_->afterValidation(figures.nats);
  schedule_->onValidation(figures.nats);
  metric(metric::kValidLoss, figures.nats);
  metric(metric::kValidBits, bpc);
  metric(metric::kValidPerplexity, figures.perplexity);
  if (figures.words > 0) metric(metric::kValidBitsPerWord, figures.bitsPerWord);
  if (figures.errorRate >= 0) metric(metric::kValidErrorRate, figures.errorRate);
  flushMetrics();
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  sessionValidSeconds_ += seconds;
  publish_(ValidationEvent{step_, epochNow(), figures, best, seconds,
                           sessionValidSeconds_ / (sessionValidSeconds_ + sessionStepSeconds_)});
  if (trainStepsSince_ > 0 && !saidWorseThanUniform_) {
    const auto note = worseThanUniformNote(
        bpc, trainBitsSince_ / static_cast<double>(trainStepsSince_), data_->vocabulary().size());
    if (note) {
      this->note(*note);
      saidWorseThanUniform_ = true;
    }
  }
  trainBitsSince_ = 0.0;
  trainStepsSince_ = 0;
  if (training_.earlyStopPatience > 0 && badValidations_ >= training_.earlyStopPatience) {
    earlyStopped_ = true;
    log("early stopping: " + std::to_string(badValidations_) + " validations without improvement");
  }
}

void Session::saveCheckpoint(const std::string& kind) {
  // Every rank takes part (the whole batch's state and every rank's generator are gathered);
  // rank 0 writes.
  const ModelState whole = gatherState(state_, collective_);
  torch::Tensor generators;
  torch::Tensor gpuGenerators;
  if (ranked_) {
    generators =
        gatherGeneratorStates(at::detail::getDefaultCPUGenerator().get_state(), collective_);
    if (!device_.is_cpu()) {
      gpuGenerators = gatherGeneratorStates(
          at::globalContext().defaultGenerator(device_).get_state(), collective_);
    }
  }
  const std::string path = kind == "best" ? outcome_.bestCheckpoint : outcome_.latestCheckpoint;
  if (!writer_) {
    collective_.sum(torch::zeros({1}));  // the file is written: others may read it
    return;
  }
  TrainingSnapshot snapshot;
  snapshot.projectYaml = projectToYaml(project_);
  snapshot.modelYaml = modelSectionYaml(project_.model);
  snapshot.vocabulary = data_->vocabulary().serialize();
  snapshot.step = step_;
  snapshot.symbols = symbols_;
  snapshot.runId = outcome_.runId;
  snapshot.projectId = catalogue_->projectId();
  snapshot.bestValid = bestValid_;
  snapshot.badValidations = badValidations_;
  snapshot.wallSeconds = wallSeconds_;
  snapshot.batcherState = batcher_->saveState();
  snapshot.scheduleState = schedule_->saveState();
  snapshot.rngState = at::detail::getDefaultCPUGenerator().get_state();
  snapshot.rankRngStates = generators;
  snapshot.rankGpuRngStates = gpuGenerators;
  if (!device_.is_cpu()) {  // this process's: rank 0's, as rngState is
    snapshot.gpuRngState = at::globalContext().defaultGenerator(device_).get_state();
  }
  Checkpoint::save(path, snapshot, *model_, rule_.get(), &whole);
  if (ranked_) collective_.sum(torch::zeros({1}));
  // Readers resolve the recorded path against the project folder from any working
  // directory (a project named by a relative path gives relative checkpoint paths).
  std::error_code error;
  const auto relative = std::filesystem::relative(path, project_.folder, error);
  const std::string recorded = error || relative.empty() ? std::filesystem::absolute(path).string()
                                                         : relative.generic_string();
  store_->recordCheckpoint(
      outcome_.runId,
      {kind, recorded, step_, bestValid_ > 0 ? std::optional<double>(bestValid_) : std::nullopt,
       utcTimestamp()});
  publish_(CheckpointEvent{step_, kind, path});
}

void Session::finish() {
  if (writer_ && std::filesystem::exists(outcome_.bestCheckpoint)) {
    // The test figure is the best-by-validation model's, as the papers report it.
    Checkpoint best = Checkpoint::open(outcome_.bestCheckpoint);
    model_->to(torch::kCPU);
    best.loadModel(*model_);
    model_->to(device_);
  }
  // The other ranks take rank 0's weights: their machines need not see its files.
  broadcastParameters(model_->parameters(), collective_);
  EvalOptions options;
  options.batch = project_.evaluation.batchSize;
  options.bptt = project_.evaluation.bptt;
  // The whole test split (validation_symbols shortens validations only): the figure `mrnn eval
  // --split test` gives for the same checkpoint.
  options.device = device_;
  options.collective = &collective_;
  JobContext job = evaluationJob("testing");
  const LossFigures test = data_->evaluate(TrainingData::HeldOut::Test, *model_, options, &job);
  outcome_.test = test.bitsPerSymbol;
  outcome_.testErrorRate = test.errorRate;
  outcome_.testSequences = test.sequences;
  flushMetrics();  // the test points come after the training's
  if (writer_) recordTestResult(*store_, outcome_.runId, test, step_, epochNow(), wallSeconds_);
  log("test: " + std::to_string(test.bitsPerSymbol) + " bits/symbol" +
      (test.words > 0 ? ", " + std::to_string(test.bitsPerWord) + " bits/word" : "") +
      (test.errorRate >= 0 ? ", " + problemVerdict(test.errorRate, test.sequences) : ""));
}

int64_t Session::largestHiddenSize() const {
  int64_t hidden = 0;
  for (const auto& layer : project_.model.layers) hidden = std::max(hidden, layer.hiddenSize);
  return hidden;
}

std::string Session::outOfMemoryReason() const {
  // LibTorch's own text is a page of allocator figures; a researcher needs the size that did
  // not fit and what to lower. The session's tensors go back to LibTorch's cache when it
  // ends, and the allocator empties that cache before it fails again, so the next run fits.
  return "the " + describeComputeDevice(device_) + " ran out of memory at step " +
         std::to_string(step_) + " training this model (" + sizeText_ +
         "); lower the hidden size, batch size or BPTT, or train on a larger GPU";
}

TrainingOutcome Session::run(const std::string& resumeFrom) {
  try {
    setUp(resumeFrom);
    int64_t sinceCheckpoint = 0;
    while (true) {
      if (stopNow()) break;
      if (control_.pauseRequested() && !ranked_) {
        flushMetrics();
        store_->setStatus(outcome_.runId, RunStatus::Paused);
        log("paused at step " + std::to_string(step_));
        control_.waitWhilePaused();
        store_->setStatus(outcome_.runId, RunStatus::Running);
        if (control_.stopRequested()) break;
        log("resumed at step " + std::to_string(step_));
      }
      if (!trainStep()) break;
      threads_->poll();
      ++sinceCheckpoint;
      if (training_.validateEvery > 0 && step_ % training_.validateEvery == 0) validate();
      if (earlyStopped_) break;
      if (training_.checkpointEvery > 0 && sinceCheckpoint >= training_.checkpointEvery) {
        saveCheckpoint("latest");
        sinceCheckpoint = 0;
      }
      if (writer_) store_->updateProgress(outcome_.runId, step_, wallSeconds_);
    }
    outcome_.stopped = stopNow() && !done() && !earlyStopped_;
    if (!outcome_.stopped &&
        (training_.validateEvery <= 0 || step_ % training_.validateEvery != 0)) {
      validate();
    }
    saveCheckpoint("latest");
    if (writer_) store_->updateProgress(outcome_.runId, step_, wallSeconds_);
    if (outcome_.stopped) {
      flushMetrics();
      if (writer_) {
        store_->setStatus(outcome_.runId, RunStatus::Stopped,
                          "stopped at step " + std::to_string(step_));
      }
    } else {
      finish();
      flushMetrics();
      // A run no better than a uniform guess is finished, but says so where its status is read.
      const auto uselessNote = endedWorseThanUniformNote(
          outcome_.test > 0.0 ? outcome_.test : bestValid_, data_->vocabulary().size());
      if (uselessNote) note(*uselessNote);
      if (writer_) store_->setStatus(outcome_.runId, RunStatus::Finished, uselessNote.value_or(""));
      outcome_.finished = true;
    }
    outcome_.steps = step_;
    outcome_.bestValid = bestValid_;
    publish_(FinishedEvent{step_, outcome_.stopped, bestValid_, outcome_.test, wallSeconds_,
                           outcome_.testErrorRate, outcome_.testSequences});
  } catch (const std::exception& error) {
    outcome_.failed = true;
    // LibTorch's CPU allocator fails with a c10::Error of its own ("can't allocate memory").
    const bool outOfMemory =
        dynamic_cast<const c10::OutOfMemoryError*>(&error) != nullptr ||
        dynamic_cast<const std::bad_alloc*>(&error) != nullptr ||
        std::string(error.what()).find("can't allocate memory") != std::string::npos;
    outcome_.reason = outOfMemory ? outOfMemoryReason() : libraryErrorText(error);
    outcome_.steps = step_;
    if (store_ && outcome_.runId > 0) {
      try {
        flushMetrics();
        store_->setStatus(outcome_.runId, RunStatus::Failed, outcome_.reason);
      } catch (const std::exception&) {
        // The database itself may be what failed; the event still reports the reason.
      }
    }
    publish_(FailedEvent{outcome_.runId, step_, outcome_.reason});
  }
  return outcome_;
}

}  // namespace

Trainer::Trainer(Project project, Publish publish, Collective* collective)
    : project_(std::move(project)), publish_(std::move(publish)), collective_(collective) {}

TrainingOutcome Trainer::run(RunControl& control, const std::string& resumeFrom,
                             const RunLength& length) {
  Session session(project_, publish_, control, collective_, length);
  return session.run(resumeFrom);
}

}  // namespace mrnn::engine
