#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QThread>

#include <functional>
#include <memory>
#include <vector>

#include "engine/runtime/job_context.h"
#include "engine/sampling/completion.h"
#include "widgets/sampler/sampler_metatypes.h"
#include "widgets/sampler/sampler_model_info.h"

namespace mrnn::engine {
struct SamplingOptions;
}

namespace mrnn::widgets {

// The sampler console's link to the engine. The model and its vocabulary live on one worker
// thread; loading and generating run there, one request after another, and every result
// comes back to the GUI thread as a queued signal carrying plain values (never a tensor), so
// the GUI never waits on the model.
class SamplingController : public QObject {
  Q_OBJECT

 public:
  explicit SamplingController(QObject* parent = nullptr);
  // Stops a running generation and joins the worker.
  ~SamplingController() override;

  // Loads the best (else latest) checkpoint of run `runId` of the project in `projectFolder`
  // (runId 0: the newest run that has one). Ends in modelLoaded() or loadFailed(). A running
  // generation is asked to stop first.
  void loadCheckpoint(const QString& projectFolder, qint64 runId);
  // The same from one checkpoint file (its stored project gives the model).
  void loadCheckpointFile(const QString& checkpointPath);

  // Lets the model go (another project was opened): hasModel() is false at once, a running
  // generation is asked to stop, and the worker frees the model after it.
  void unloadModel();

  // Generates on the worker: symbolGenerated() for every symbol, then finished() or failed().
  // Returns false when nothing was started: still busy (no signal), or no model loaded
  // (failed() says so).
  bool generate(const engine::SamplingOptions& options);
  // Continues `original` (generated from options.prime) from `position` with symbol
  // `alternative` there instead: symbolGenerated(0, ...) for the chosen symbol and those
  // after it, then finished() with the whole new completion (or completions, for beams).
  bool branch(const engine::Completion& original, int position, qint64 alternative,
              const engine::SamplingOptions& options);
  // Asks a running generation to end; it ends within one symbol, and finished() carries what
  // was generated (stopReason "stopped"). Beam search stops once its search is done.
  void stop();

  // Loading or generating.
  bool isBusy() const { return pending_ > 0; }
  bool hasModel() const { return info_.isValid(); }
  // The loaded model (invalid until modelLoaded()).
  SamplerModelInfo modelInfo() const { return info_; }

 Q_SIGNALS:
  void loadStarted(const QString& source);  // the project folder or checkpoint file
  void modelLoaded(const mrnn::widgets::SamplerModelInfo& info);
  // Why the checkpoint could not be loaded, in words; no model is loaded afterwards.
  void loadFailed(const QString& message);
  void symbolGenerated(int completion, const mrnn::engine::GeneratedSymbol& symbol);
  void finished(const QList<mrnn::engine::Completion>& completions);
  void failed(const QString& message);
  void busyChanged(bool busy);

 private:
  struct Worker;
  // engine::SymbolCallback, spelled out so that this header needs no LibTorch.
  using SymbolSink = std::function<void(size_t, const engine::GeneratedSymbol&)>;
  // Runs on the worker; `job` carries the stop flag.
  using Generation = std::function<std::vector<engine::Completion>(
      Worker&, const SymbolSink& onSymbol, engine::JobContext* job)>;

  // Runs `task` on the worker thread after the requests posted before it.
  void post(std::function<void()> task);
  void beginRequest();
  // On the GUI thread, when a posted request has ended.
  void endRequest();
  void startLoad(const QString& checkpoint, std::function<std::string()> locate);
  bool startGeneration(Generation run);

  QThread thread_;
  QObject* context_;  // lives on thread_: the receiver of posted tasks
  std::shared_ptr<Worker> worker_;
  // Shared with the worker's symbol callback; a stop needs no lock.
  std::shared_ptr<engine::StopToken> stopRequested_;  // the running request's
  int pending_ = 0;  // requests posted and not yet ended (GUI thread only)
  // Counts loads and unloads: a load's result is taken only if nothing came after it.
  int loadTicket_ = 0;
  SamplerModelInfo info_;
};

}  // namespace mrnn::widgets
