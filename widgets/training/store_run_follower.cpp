#include "widgets/training/store_run_follower.h"

#include <QFile>
#include <QString>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "engine/store/metric_names.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_eta.h"

namespace mrnn::widgets {

namespace metric = engine::metric;
namespace {

// The parent of process `pid` (Linux: /proc/<pid>/stat's fourth field); 0 when unknown.
int64_t parentOf(int64_t pid) {
  QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
  if (!stat.open(QIODevice::ReadOnly)) return 0;
  const QByteArray text = stat.readAll();
  // "pid (name) state ppid ...": the name may hold spaces and parentheses.
  const int close = text.lastIndexOf(')');
  if (close < 0) return 0;
  const QList<QByteArray> fields = text.mid(close + 2).split(' ');
  return fields.size() > 1 ? fields[1].toLongLong() : 0;
}

const engine::MetricSummary* summaryOf(const std::vector<engine::MetricSummary>& summaries,
                                       const std::string& name) {
  for (const engine::MetricSummary& summary : summaries) {
    if (summary.name == name) return &summary;
  }
  return nullptr;
}

bool samePath(const std::string& a, const std::string& b) {
  std::error_code error;
  return a == b || std::filesystem::equivalent(a, b, error);
}

}  // namespace

StoreRunFollower::StoreRunFollower(Launch launch) : launch_(std::move(launch)) {
  if (!engine::RunCatalogue::exists(launch_.projectFolder)) return;
  const engine::RunCatalogue catalogue(launch_.projectFolder);
  const auto runs = catalogue.runs();
  if (!runs.empty()) newestBefore_ = runs.back().id;
  if (launch_.checkpoint.empty()) return;
  int64_t fromStep = 0;
  for (const engine::RunCheckpoint& checkpoint : catalogue.allCheckpoints()) {
    if (samePath(checkpoint.path, launch_.checkpoint)) {
      resumedRun_ = checkpoint.runId;
      fromStep = checkpoint.step;
      break;
    }
  }
  if (resumedRun_ == 0) return;
  // The curves so far are the monitor's history; only steps after the checkpoint are news.
  lastStep_ = fromStep;
  lastValidStep_ = fromStep;
  for (const engine::MetricPoint& point :
       catalogue.store().metrics(resumedRun_, metric::kValidBits)) {
    if (point.step <= fromStep && (bestValid_ <= 0.0 || point.value < bestValid_)) {
      bestValid_ = point.value;
    }
  }
  for (const engine::RunCheckpoint& checkpoint : catalogue.checkpoints(resumedRun_)) {
    checkpointSteps_[checkpoint.kind] = checkpoint.step;
  }
  const auto summaries = catalogue.store().metricSummaries(resumedRun_);
  if (const auto* loss = summaryOf(summaries, metric::kTrainLoss);
      loss && loss->lastStep > fromStep) {
    stale_ = std::make_pair(loss->points, loss->lastStep);
  }
}

int64_t StoreRunFollower::identify(const engine::RunCatalogue& catalogue, int64_t hint) const {
  if (hint > 0) return hint;
  if (launcher_ <= 0) return 0;
  // Rank 0 holds the run's lock, and rank 0 is the launcher's child.
  for (const engine::RunRecord& run : catalogue.runs()) {
    if (run.status != engine::RunStatus::Running) continue;
    if (run.id <= newestBefore_ && run.id != resumedRun_) continue;
    const auto writer = catalogue.writer(run.id);
    if (writer && parentOf(writer->pid) == launcher_) return run.id;
  }
  return 0;
}

std::vector<engine::TrainingEvent> StoreRunFollower::read(int64_t hint, bool ended) {
  std::vector<engine::TrainingEvent> events;
  if (!engine::RunCatalogue::exists(launch_.projectFolder)) return events;
  const engine::RunCatalogue catalogue(launch_.projectFolder);
  if (runId_ == 0) runId_ = identify(catalogue, hint);
  if (runId_ == 0) return events;
  record_ = catalogue.run(runId_);
  if (!record_) return events;  // deleted meanwhile
  if (!started_) {
    started_ = true;
    events.push_back(engine::StartedEvent{runId_, lastStep_, resumedRun_ == runId_, ""});
  }

  const engine::RunStore& store = catalogue.store();
  const auto summaries = store.metricSummaries(runId_);
  Timeline timeline;
  const engine::MetricSummary* loss = summaryOf(summaries, metric::kTrainLoss);
  if (loss && stale_ && !ended && std::make_pair(loss->points, loss->lastStep) == *stale_) {
    loss = nullptr;  // the trainer has not dropped the steps it trains again yet
  } else {
    stale_.reset();
  }
  if (loss && loss->lastStep > lastStep_) {
    int ranks = 0;
    while (summaryOf(summaries, metric::rankSymbolsPerSecond(ranks))) ++ranks;
    readSteps(store, ranks, timeline);
  }
  const engine::MetricSummary* valid = summaryOf(summaries, metric::kValidBits);
  if (valid && valid->lastStep > lastValidStep_ && !stale_) readValidations(store, timeline);
  readCheckpoints(catalogue, ended, timeline);
  // Each validation and checkpoint after the step it follows, as the trainer publishes them.
  std::stable_sort(timeline.begin(), timeline.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& entry : timeline) events.push_back(std::move(entry.second));
  return events;
}

void StoreRunFollower::readSteps(const engine::RunStore& store, int rankCount, Timeline& out) {
  std::map<int64_t, engine::StepEvent> steps;
  for (const engine::MetricPoint& point : store.metrics(runId_, metric::kTrainLoss)) {
    if (point.step <= lastStep_) continue;
    engine::StepEvent& step = steps[point.step];
    step.step = point.step;
    step.epoch = point.epoch;
    step.wallSeconds = point.wallSeconds;
    step.loss = point.value;
    step.bitsPerSymbol = point.value / std::log(2.0);
    step.rankSymbolsPerSecond.assign(static_cast<size_t>(rankCount), 0.0);
  }
  const auto fill = [&](const std::string& name, auto set) {
    for (const engine::MetricPoint& point : store.metrics(runId_, name)) {
      if (point.step <= lastStep_) continue;
      const auto step = steps.find(point.step);
      if (step != steps.end()) set(step->second, point.value);
    }
  };
  fill(metric::kLearningRate, [](engine::StepEvent& e, double v) { e.learningRate = v; });
  fill(metric::kGradientNorm, [](engine::StepEvent& e, double v) { e.gradientNorm = v; });
  fill(metric::kSymbolsPerSecond, [](engine::StepEvent& e, double v) { e.symbolsPerSecond = v; });
  fill(metric::kSymbols,
       [](engine::StepEvent& e, double v) { e.symbols = static_cast<int64_t>(v); });
  // A Hessian-free run's figures, as the trainer hands them to its own monitor.
  for (const char* name : {metric::kCgIterations, metric::kLambda, metric::kRho,
                           metric::kBacktrackedIterate, metric::kStepSize}) {
    fill(name, [name](engine::StepEvent& e, double v) { e.update.push_back({name, v}); });
  }
  for (int r = 0; r < rankCount; ++r) {
    fill(metric::rankSymbolsPerSecond(r), [r](engine::StepEvent& e, double v) {
      e.rankSymbolsPerSecond[static_cast<size_t>(r)] = v;
    });
  }
  for (auto& [number, step] : steps) {
    // The trainer's ETA (engine::runEtaSeconds): the time per step so far, times the steps left.
    double total = static_cast<double>(launch_.maxSteps);
    if (launch_.maxSteps <= 0 && step.epoch > 0) {
      total = static_cast<double>(launch_.epochs) * static_cast<double>(number) / step.epoch;
    }
    step.etaSeconds = engine::runEtaSeconds(static_cast<double>(number), total, step.wallSeconds);
    lastStep_ = number;
    lastWall_ = step.wallSeconds;
    out.emplace_back(number, std::move(step));
  }
}

void StoreRunFollower::readValidations(const engine::RunStore& store, Timeline& out) {
  std::map<int64_t, engine::ValidationEvent> validations;
  const auto fill = [&](const std::string& name, auto set) {
    for (const engine::MetricPoint& point : store.metrics(runId_, name)) {
      if (point.step <= lastValidStep_) continue;
      engine::ValidationEvent& event = validations[point.step];
      event.step = point.step;
      event.epoch = point.epoch;
      set(event.figures, point.value);
    }
  };
  fill(metric::kValidLoss, [](engine::LossFigures& f, double v) { f.nats = v; });
  fill(metric::kValidBits, [](engine::LossFigures& f, double v) { f.bitsPerSymbol = v; });
  fill(metric::kValidPerplexity, [](engine::LossFigures& f, double v) { f.perplexity = v; });
  fill(metric::kValidBitsPerWord, [](engine::LossFigures& f, double v) {
    f.bitsPerWord = v;
    f.wordPerplexity = std::exp2(v);
  });
  fill(metric::kValidErrorRate, [](engine::LossFigures& f, double v) { f.errorRate = v; });
  for (auto& [number, event] : validations) {
    // The best so far is what the trainer saved a "best" checkpoint for.
    event.best = bestValid_ <= 0.0 || event.figures.bitsPerSymbol < bestValid_;
    if (event.best) bestValid_ = event.figures.bitsPerSymbol;
    lastValidStep_ = number;
    out.emplace_back(number, std::move(event));
  }
}

void StoreRunFollower::readCheckpoints(const engine::RunCatalogue& catalogue, bool ended,
                                       Timeline& out) {
  for (const engine::RunCheckpoint& checkpoint : catalogue.checkpoints(runId_)) {
    const auto announced = checkpointSteps_.find(checkpoint.kind);
    if (announced != checkpointSteps_.end() && announced->second == checkpoint.step) continue;
    // Announced after the steps before it, which may still wait in rank 0's metric batch.
    if (!ended && checkpoint.step > lastStep_) continue;
    checkpointSteps_[checkpoint.kind] = checkpoint.step;
    out.emplace_back(checkpoint.step,
                     engine::CheckpointEvent{checkpoint.step, checkpoint.kind, checkpoint.path});
  }
}

}  // namespace mrnn::widgets
