#include "widgets/data/corpus_scanner.h"

#include <QtConcurrent/QtConcurrentRun>

namespace mrnn::widgets {

CorpusScanner::CorpusScanner(QObject* parent)
    : QObject(parent), watcher_(new QFutureWatcher<CorpusScanResult>(this)) {
  connect(watcher_, &QFutureWatcher<CorpusScanResult>::finished, this, [this] {
    if (pending_) {
      const CorpusScanRequest next = *pending_;
      pending_.reset();
      launch(next);
      return;
    }
    if (cancel_->stopRequested()) return;  // cancelled without a successor: nobody wants it
    emit finished(watcher_->result());
  });
}

CorpusScanner::~CorpusScanner() {
  // The worker holds no pointer to us: it finishes on its own (reading a large corpus cannot
  // be interrupted) and its result is dropped, so closing a panel never waits for it.
  if (cancel_) cancel_->requestStop();
  watcher_->disconnect(this);
}

void CorpusScanner::scan(const CorpusScanRequest& request) {
  if (watcher_->isRunning()) {
    cancel_->requestStop();
    pending_ = request;
    return;
  }
  launch(request);
}

void CorpusScanner::cancel() {
  pending_.reset();
  if (cancel_) cancel_->requestStop();
}

void CorpusScanner::launch(const CorpusScanRequest& request) {
  cancel_ = std::make_shared<engine::StopToken>();  // each scan its own
  const std::shared_ptr<engine::StopToken> cancel = cancel_;
  emit started();
  watcher_->setFuture(
      QtConcurrent::run([request, cancel]() { return scanCorpus(request, *cancel); }));
}

}  // namespace mrnn::widgets
