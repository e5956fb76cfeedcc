#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <optional>

#include "widgets/data/corpus_scan.h"

namespace mrnn::widgets {

// Runs scanCorpus() on a worker thread, one scan at a time. A new request while one runs
// cancels it (its result is dropped) and starts once it has stopped, so settings changed in
// quick succession cost one extra scan at most and the GUI thread never waits.
class CorpusScanner : public QObject {
  Q_OBJECT

 public:
  explicit CorpusScanner(QObject* parent = nullptr);
  ~CorpusScanner() override;

  void scan(const CorpusScanRequest& request);
  // Drops the running scan's result and any request waiting for it.
  void cancel();
  bool isScanning() const { return watcher_->isRunning() || pending_.has_value(); }

 signals:
  void started();
  // The latest request's result (never a stale one).
  void finished(const mrnn::widgets::CorpusScanResult& result);

 private:
  void launch(const CorpusScanRequest& request);

  QFutureWatcher<CorpusScanResult>* watcher_;
  std::shared_ptr<engine::StopToken> cancel_;
  std::optional<CorpusScanRequest> pending_;
};

}  // namespace mrnn::widgets
