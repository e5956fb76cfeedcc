#include "widgets/sampler/sampling_controller.h"

#include <QDir>
#include <QFileInfo>
#include <QMetaObject>

#include <chrono>
#include <exception>
#include <iterator>
#include <thread>

#include "engine/analysis/loaded_model.h"
#include "engine/devices/torch_threads.h"
#include "engine/sampling/sampler.h"
#include "engine/sampling/sampling_options.h"
#include "engine/store/run_catalogue.h"

#include "engine/config/cell_type.h"

namespace mrnn::widgets {

// What lives on the worker thread: the model, its vocabulary and the sampler reading them.
// Only tasks posted to the worker touch it.
struct SamplingController::Worker {
  std::unique_ptr<engine::LoadedModel> loaded;
  std::unique_ptr<engine::Sampler> sampler;
  std::atomic<bool> closing{false};  // the controller is going: skip queued requests
};

namespace {

// Symbols queued for the GUI thread before the worker waits for it to catch up.
constexpr int kMaxBacklog = 256;

// The engine's messages start in lower case and name the value at fault; they follow a
// short sentence saying what could not be done.
QString inWords(const QString& what, const std::exception& error) {
  QString reason = QString::fromStdString(error.what()).trimmed();
  if (reason.isEmpty()) reason = QStringLiteral("unknown error");
  return QStringLiteral("%1: %2").arg(what, reason);
}

SamplerModelInfo describe(const engine::LoadedModel& loaded) {
  SamplerModelInfo info;
  info.checkpoint = QString::fromStdString(loaded.checkpoint);
  info.runId = loaded.runId;
  info.projectName = QString::fromStdString(loaded.project.name);
  info.level = QString::fromStdString(engine::inputLevelName(loaded.vocabulary.level()));
  info.vocabularySize = loaded.vocabulary.size();
  for (const auto& layer : loaded.project.model.layers) {
    info.layers.append(
        {QString::fromStdString(engine::cellTypeName(layer.type)), layer.hiddenSize});
  }
  info.parameters = loaded.parameterCount();
  return info;
}

}  // namespace

SamplingController::SamplingController(QObject* parent)
    : QObject(parent),
      context_(new QObject),
      worker_(std::make_shared<Worker>()),
      stopRequested_(std::make_shared<engine::StopToken>()) {
  registerSamplerMetatypes();
  thread_.setObjectName(QStringLiteral("mrnn sampler"));
  context_->moveToThread(&thread_);
  thread_.start();
}

SamplingController::~SamplingController() {
  worker_->closing = true;
  stopRequested_->requestStop();
  thread_.quit();
  thread_.wait();
  delete context_;  // its thread has ended, so deleting it here is safe
}

void SamplingController::post(std::function<void()> task) {
  QMetaObject::invokeMethod(context_, std::move(task), Qt::QueuedConnection);
}

void SamplingController::beginRequest() {
  if (pending_++ == 0) Q_EMIT busyChanged(true);
}

void SamplingController::endRequest() {
  if (--pending_ == 0) Q_EMIT busyChanged(false);
}

void SamplingController::loadCheckpoint(const QString& projectFolder, qint64 runId) {
  const std::string folder = QDir(projectFolder).absolutePath().toStdString();
  startLoad(projectFolder,
            [folder, runId] { return engine::RunCatalogue(folder).checkpointToAnalyse(runId); });
}

void SamplingController::loadCheckpointFile(const QString& checkpointPath) {
  const std::string path = checkpointPath.toStdString();
  startLoad(checkpointPath, [path] { return path; });
}

void SamplingController::startLoad(const QString& checkpoint, std::function<std::string()> locate) {
  stopRequested_->requestStop();  // a running generation ends first; the load queues behind it
  beginRequest();
  const int ticket = ++loadTicket_;
  Q_EMIT loadStarted(checkpoint);
  post([this, ticket, worker = worker_, locate = std::move(locate)] {
    if (worker->closing) return;
    // The old model goes first: two models need not fit in memory at once.
    worker->sampler.reset();
    worker->loaded.reset();
    try {
      auto loaded =
          std::make_unique<engine::LoadedModel>(engine::loadModelFromCheckpoint(locate()));
      auto sampler = std::make_unique<engine::Sampler>(*loaded->model, loaded->vocabulary);
      const SamplerModelInfo info = describe(*loaded);
      worker->loaded = std::move(loaded);
      worker->sampler = std::move(sampler);
      QMetaObject::invokeMethod(
          this,
          [this, ticket, info] {
            endRequest();
            if (ticket != loadTicket_) return;  // unloaded or replaced since
            info_ = info;
            Q_EMIT modelLoaded(info);
          },
          Qt::QueuedConnection);
    } catch (const std::exception& error) {
      const QString message = inWords(tr("Cannot load the checkpoint"), error);
      QMetaObject::invokeMethod(
          this,
          [this, ticket, message] {
            endRequest();
            if (ticket != loadTicket_) return;
            info_ = SamplerModelInfo();
            Q_EMIT loadFailed(message);
          },
          Qt::QueuedConnection);
    }
  });
}

void SamplingController::unloadModel() {
  stopRequested_->requestStop();
  info_ = SamplerModelInfo();
  ++loadTicket_;
  post([worker = worker_] {
    worker->sampler.reset();
    worker->loaded.reset();
  });
}

bool SamplingController::generate(const engine::SamplingOptions& options) {
  return startGeneration(
      [options](Worker& worker, const SymbolSink& onSymbol, engine::JobContext* job) {
        return worker.sampler->generate(options, onSymbol, job);
      });
}

bool SamplingController::branch(const engine::Completion& original, int position,
                                qint64 alternative, const engine::SamplingOptions& options) {
  if (position < 0) position = 0;
  return startGeneration([original, position, alternative, options](
                             Worker& worker, const SymbolSink& onSymbol, engine::JobContext* job) {
    return worker.sampler->branch(original, static_cast<size_t>(position), alternative, options,
                                  onSymbol, job);
  });
}

bool SamplingController::startGeneration(Generation run) {
  if (isBusy()) return false;
  if (!hasModel()) {
    Q_EMIT failed(
        tr("No checkpoint is loaded: choose a run's checkpoint first (train the project if it "
           "has none yet)."));
    return false;
  }
  stopRequested_ = std::make_shared<engine::StopToken>();  // this request's own
  beginRequest();
  post([this, worker = worker_, stop = stopRequested_, run = std::move(run)] {
    if (worker->closing) return;
    // Every symbol goes to the GUI thread as it is made; reading the stop flag here is what
    // ends generation within one symbol of stop().
    // The worker makes symbols far faster than a text view can show them; it waits while
    // more than kMaxBacklog symbols are queued for the GUI thread, so a stop (or the end)
    // reaches the screen promptly instead of after a flood of queued symbols.
    auto backlog = std::make_shared<std::atomic<int>>(0);
    const SymbolSink onSymbol = [this, stop, backlog](size_t completion,
                                                      const engine::GeneratedSymbol& symbol) {
      const int index = static_cast<int>(completion);
      backlog->fetch_add(1);
      QMetaObject::invokeMethod(
          this,
          [this, index, symbol, backlog] {
            backlog->fetch_sub(1);
            Q_EMIT symbolGenerated(index, symbol);
          },
          Qt::QueuedConnection);
      while (backlog->load() > kMaxBacklog && !stop->stopRequested()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    };
    engine::JobContext job({}, *stop);
    try {
      // Beside whatever else the desktop runs: the processors others leave free.
      job.followLoad(engine::torchThreads(0));
      if (!worker->sampler) throw std::runtime_error("the model is not loaded");
      std::vector<engine::Completion> results = run(*worker, onSymbol, &job);
      QList<engine::Completion> completions(std::make_move_iterator(results.begin()),
                                            std::make_move_iterator(results.end()));
      QMetaObject::invokeMethod(
          this,
          [this, completions] {
            endRequest();
            Q_EMIT finished(completions);
          },
          Qt::QueuedConnection);
    } catch (const std::exception& error) {
      const QString message = inWords(tr("Cannot generate"), error);
      QMetaObject::invokeMethod(
          this,
          [this, message] {
            endRequest();
            Q_EMIT failed(message);
          },
          Qt::QueuedConnection);
    }
  });
  return true;
}

void SamplingController::stop() {
  if (isBusy()) stopRequested_->requestStop();
}

}  // namespace mrnn::widgets
