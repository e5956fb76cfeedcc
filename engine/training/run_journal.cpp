#include "engine/training/run_journal.h"

#include <torch/torch.h>

#include <filesystem>
#include <stdexcept>

#include "engine/config/model_names.h"
#include "engine/config/project_file.h"
#include "engine/io/atomic_file.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/imported_run.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/text_format.h"
#include "engine/store/unwritten_metrics.h"
#include "engine/training/checkpoint.h"
#include "engine/training/collective.h"
#include "engine/training/metrics.h"
#include "engine/training/resumed_training.h"
#include "engine/training/run_test_evaluation.h"
#include "engine/training/training_events.h"

namespace mrnn::engine {
namespace {

const char* const kFreeAgain =
    "the run database is free again; the records that waited are written";

}  // namespace

RunJournal::RunJournal(const std::string& projectFolder, bool writes, Say say)
    : folder_(projectFolder), writes_(writes), say_(std::move(say)) {}

void RunJournal::open() {
  if (!writes_ || catalogue_) return;
  catalogue_ = std::make_unique<RunCatalogue>(folder_, RunCatalogue::Access::ReadWrite);
  store_ = &catalogue_->store();
}

RunJournal::~RunJournal() = default;

void RunJournal::shareRunId(Collective& collective) {
  auto id = torch::full({1}, static_cast<double>(runId_), torch::kDouble);
  collective.broadcast(id, 0);
  runId_ = static_cast<int64_t>(id.item<double>());
}

std::string RunJournal::projectId() const {
  return catalogue_ ? catalogue_->projectId() : std::string();
}

void RunJournal::create(const Project& project, int64_t parameters) {
  open();
  if (!store_) return;
  RunRecord record;
  record.name = project.runName.empty() ? defaultRunName(project.model) : project.runName;
  record.modelType = modelTypeSummary(project.model);
  record.parameters = parameters;
  record.configYaml = projectToYaml(project);
  record.startedAt = utcTimestamp();
  runId_ = store_->createRun(record);
  runName_ = record.name;
  lock_ = catalogue_->lockForWriting(runId_);
  trial_ = project.trial;
}

RunRecord RunJournal::reopen(const TrainingSnapshot& snapshot, const std::string& path) {
  open();
  if (!store_) return {};
  checkCheckpointBelongs(snapshot, path, *catalogue_);
  const auto record = store_->run(snapshot.runId);
  if (!record) {
    throw std::runtime_error("checkpoint '" + path + "' belongs to run " +
                             std::to_string(snapshot.runId) + ", which is not in " +
                             store_->path());
  }
  // Before anything of the run is read, written or locked: an imported run holds weights,
  // not a training run's state (its data position, optimiser) to go on from.
  if (isImportedRun(*record)) {
    throw std::runtime_error("run " + std::to_string(snapshot.runId) + " (" + record->name +
                             ") was imported: it has weights but no training state to "
                             "resume from; train a new run to train further");
  }
  lock_ = catalogue_->lockForWriting(snapshot.runId);  // one writer per run
  runName_ = record->name;
  return *record;
}

void RunJournal::rewindTo(int64_t step, const RunRecord& record) {
  if (!store_) return;
  runId_ = record.id;
  writeKeptMetrics();
  store_->deleteMetricsAfter(runId_, step);
  if (record.testResult) store_->clearTestResult(runId_);
}

void RunJournal::recordSettings(const std::string& configYaml, const RunRecord& record) {
  if (store_ && record.configYaml != configYaml) store_->setConfig(runId_, configYaml);
}

void RunJournal::startRunning() {
  if (!store_) return;
  std::filesystem::create_directories(RunPaths::checkpointFolder(folder_, runId_));
  deferred_ = std::make_unique<DeferredWrites>(*store_);
  setStatus(RunStatus::Running);
  if (!trial_) return;
  // The queue learns which run its trial trains as the run's other records reach the store:
  // a held database keeps them waiting together.
  write([folder = folder_, trial = *trial_, id = runId_](RunStore&) {
    ExperimentLedger ledger(folder, ExperimentLedger::Access::ReadWrite,
                            DeferredWrites::kTryMilliseconds);
    ledger.setRun(trial.experiment, trial.index, id);
  });
}

void RunJournal::write(DeferredWrites::Write write, int64_t weight, const char* kind,
                       std::shared_ptr<const std::vector<MetricPoint>> points) {
  if (!deferred_) {
    write(*store_);
    return;
  }
  const bool waited = deferred_->waiting() > 0;
  deferred_->write(std::move(write), weight, kind, std::move(points));
  const bool waits = deferred_->waiting() > 0;
  if (!say_ || waited == waits) return;
  if (waits) {
    say_(
        "another program holds the run database locked; training goes on, and the run's "
        "records wait in memory until it is free",
        true);
  } else {
    say_(kFreeAgain, true);
  }
}

void RunJournal::setStatus(RunStatus status, const std::string& reason) {
  if (!store_) return;
  write([id = runId_, status, reason](RunStore& store) { store.setStatus(id, status, reason); });
}

void RunJournal::recordStep(const StepEvent& event, bool usesLearningRate) {
  const auto add = [this, &event](const std::string& name, double value) {
    metric({name, event.step, event.epoch, event.wallSeconds, value});
  };
  add(metric::kTrainLoss, event.loss);
  add(metric::kTrainBits, event.bitsPerSymbol);
  if (usesLearningRate) add(metric::kLearningRate, event.learningRate);
  add(metric::kGradientNorm, event.gradientNorm);
  add(metric::kSymbolsPerSecond, event.symbolsPerSecond);
  add(metric::kSymbols, static_cast<double>(event.symbols));
  for (const auto& figure : event.update) add(figure.name, figure.value);
  for (size_t r = 0; r < event.rankSymbolsPerSecond.size(); ++r) {
    add(metric::rankSymbolsPerSecond(static_cast<int>(r)), event.rankSymbolsPerSecond[r]);
  }
}

void RunJournal::recordValidation(const LossFigures& figures, int64_t step, double epoch,
                                  double wallSeconds) {
  const auto add = [&](const std::string& name, double value) {
    metric({name, step, epoch, wallSeconds, value});
  };
  add(metric::kValidLoss, figures.nats);
  add(metric::kValidBits, figures.bitsPerSymbol);
  add(metric::kValidPerplexity, figures.perplexity);
  if (figures.words > 0) add(metric::kValidBitsPerWord, figures.bitsPerWord);
  if (figures.errorRate >= 0) add(metric::kValidErrorRate, figures.errorRate);
  flush();
}

void RunJournal::metric(const MetricPoint& point) {
  if (!store_) return;
  pending_.push_back(point);
  if (pending_.size() >= 100) flush();
}

void RunJournal::flush() {
  if (!store_ || pending_.empty()) return;
  std::vector<MetricPoint> points;
  points.swap(pending_);
  const auto weight = static_cast<int64_t>(points.size());
  auto shared = std::make_shared<const std::vector<MetricPoint>>(std::move(points));
  write([id = runId_, shared](RunStore& store) { store.appendMetrics(id, *shared); }, weight,
        nullptr, shared);
}

void RunJournal::setBestValid(double bitsPerSymbol) {
  if (!store_) return;
  write([id = runId_, bitsPerSymbol](RunStore& store) { store.setBestValid(id, bitsPerSymbol); });
}

void RunJournal::updateProgress(int64_t step, double wallSeconds) {
  if (!store_) return;
  write([id = runId_, step,
         wallSeconds](RunStore& store) { store.updateProgress(id, step, wallSeconds); },
        1, "progress");
}

void RunJournal::recordCheckpoint(const std::string& kind, const std::string& path, int64_t step,
                                  double bestValid) {
  if (!store_) return;
  // Readers resolve the recorded path against the project folder from any working
  // directory (a project named by a relative path gives relative checkpoint paths).
  std::error_code error;
  const auto relative = std::filesystem::relative(path, folder_, error);
  const std::string recorded = error || relative.empty() ? std::filesystem::absolute(path).string()
                                                         : relative.generic_string();
  const CheckpointRecord record{kind, recorded, step,
                                bestValid > 0 ? std::optional<double>(bestValid) : std::nullopt,
                                utcTimestamp()};
  write([id = runId_, record](RunStore& store) { store.recordCheckpoint(id, record); });
}

void RunJournal::recordTest(const LossFigures& figures, int64_t step, double epoch,
                            double wallSeconds) {
  if (!store_) return;
  write([id = runId_, figures, step, epoch, wallSeconds](RunStore& store) {
    recordTestResult(store, id, figures, step, epoch, wallSeconds);
  });
}

void RunJournal::fail(const std::string& reason) noexcept {
  if (!store_ || runId_ <= 0) return;
  try {
    flush();
    setStatus(RunStatus::Failed, reason);
  } catch (const std::exception&) {
    // The database itself may be what failed; the failure's event still says why.
  }
  try {
    settle(std::chrono::seconds(1));
  } catch (const std::exception&) {
    // As above: never throws.
  }
}

void RunJournal::settle(std::chrono::steady_clock::duration patience,
                        const std::function<bool()>& giveUp) {
  if (!deferred_ || deferred_->waiting() == 0) return;
  if (deferred_->settle(patience, giveUp)) {
    if (say_) say_(kFreeAgain, true);
    return;
  }
  const std::string kept = keepUnwrittenMetrics();
  if (say_) {
    say_("run " + std::to_string(runId_) +
             "'s last records were not written: another program still holds the run database "
             "locked. The run reads as interrupted and resumes from its latest checkpoint" +
             (kept.empty() ? std::string()
                           : "; its metric points since then are kept in " + kept +
                                 " and written when it resumes"),
         true);
  }
}

std::string RunJournal::keepUnwrittenMetrics() {
  std::vector<MetricPoint> points = deferred_->waitingMetrics();
  if (points.empty()) return "";
  const std::string file = RunPaths::unwrittenMetrics(folder_, runId_);
  try {
    // A stop of a run resumed while the database was held may find an earlier stop's points.
    std::error_code error;
    if (std::filesystem::is_regular_file(file, error)) {
      std::vector<MetricPoint> earlier = parseUnwrittenMetrics(readWholeFile(file), file);
      points.insert(points.begin(), earlier.begin(), earlier.end());
    }
    writeFileAtomically(file, unwrittenMetricsText(points));
  } catch (const std::exception& error) {
    if (say_)
      say_("the metric points that waited could not be kept either: " + std::string(error.what()),
           true);
    return "";
  }
  return file;
}

void RunJournal::writeKeptMetrics() {
  const std::string file = RunPaths::unwrittenMetrics(folder_, runId_);
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, error))) return;
  try {
    store_->appendMissingMetrics(runId_, parseUnwrittenMetrics(readWholeFile(file), file));
  } catch (const StoreError&) {
    throw;  // the database itself: the resume cannot go on, and the file stays for the next
  } catch (const std::exception& why) {
    // Damaged: the curves keep their gap; the file is left for a person to read.
    if (say_) {
      say_("the metric points a stop could not write are not written: " + std::string(why.what()),
           true);
    }
    return;
  }
  // Written: a crash before this removal finds them at the next resume, which skips them.
  std::filesystem::remove(file, error);
}

}  // namespace mrnn::engine
