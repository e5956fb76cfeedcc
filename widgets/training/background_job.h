#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

class QTimer;

namespace mrnn::engine {
class AnalysisJob;
class JobContext;
}  // namespace mrnn::engine

namespace mrnn::widgets {

// Work that must not block the GUI (an evaluation, reading long metric series) on an
// engine thread (engine::AnalysisJob), its progress and end re-emitted on the GUI thread by
// a polling timer. The work reports through the JobContext and must not touch widgets;
// results go through state the caller shares with it and reads after succeeded().
// Destroying a running job cancels it and waits for it.
class BackgroundJob : public QObject {
  Q_OBJECT

 public:
  using Work = std::function<void(engine::JobContext&)>;

  explicit BackgroundJob(Work work, QObject* parent = nullptr);
  ~BackgroundJob() override;

  void start();
  // The work stops at its next progress report; cancelled() follows.
  void cancel();
  bool isRunning() const;

 signals:
  void progress(double fraction, const QString& phase);
  void succeeded();
  void failed(const QString& reason);
  void cancelled();

 private:
  void poll();

  std::unique_ptr<engine::AnalysisJob> job_;
  QTimer* timer_ = nullptr;
  bool ended_ = false;
};

}  // namespace mrnn::widgets
