#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "widgets/training/training_event_metatypes.h"

class QProcess;
class QTimer;

namespace mrnn::widgets {

class StoreRunFollower;

// A run on several processes: `mrnn train <project.yaml> --nproc N` (or `mrnn resume ...
// --nproc N --checkpoint PATH`) started as a child of the workbench, the training
// controller's counterpart of an engine TrainingRun. Nothing crosses but the process and the
// run store: progress comes from the store (StoreRunFollower, read on a worker thread every
// kReadIntervalMs), log lines from the launcher's output, and when it fails its error lines
// say why (launcherFailureText). The events are the engine's value types, drained as a
// TrainingRun's are; the last (finished or failed) comes once the launcher has exited and the
// store has been read a last time. stop() sends the launcher SIGTERM, which it passes to every
// rank: they stop after the same step with a resumable checkpoint. The launcher also gets
// SIGTERM when the workbench dies, however it dies.
class RankProcessRun : public QObject {
  Q_OBJECT

 public:
  static constexpr int kReadIntervalMs = 500;
  // How long destroying a running run waits for its ranks to save a checkpoint and exit.
  static constexpr int kStopWaitMs = 30000;

  struct Options {
    QString program;  // the `mrnn` to run
    QString projectFile;
    int processes = 2;
    QString checkpoint;  // resume from it (absolute); empty: a new run
    // The project's length: the ETA's, and a resumed run's (as the one-process Resume).
    qint64 maxSteps = 0;
    qint64 epochs = 1;
  };

  explicit RankProcessRun(QObject* parent = nullptr);
  // Stops a run still training (SIGTERM) and waits up to kStopWaitMs for it.
  ~RankProcessRun() override;

  // Starts the launcher; false, with the reason in `error`, when it cannot run.
  bool start(const Options& options, QString* error);
  void stop();
  // Until the last event is ready to drain.
  bool isRunning() const { return !done_; }
  std::vector<engine::TrainingEvent> drain();

  // "mrnn train project.yaml --nproc 2", for the log.
  QString commandLine() const;
  qint64 processId() const { return pid_; }
  // The run's id once known (0 before).
  qint64 runId() const;

 private:
  void readOutput(bool standardError, bool flush);
  void takeLine(const QString& line, bool standardError);
  void onExited(int code, bool crashed);
  void startRead();
  void finish();

  QProcess* process_ = nullptr;
  QTimer* timer_ = nullptr;
  std::shared_ptr<StoreRunFollower> follower_;
  QString program_;
  QStringList arguments_;
  qint64 pid_ = 0;
  bool reading_ = false;
  bool exited_ = false;
  bool finalRead_ = false;  // the read after the exit has started
  bool done_ = true;
  bool stopRequested_ = false;
  int exitCode_ = 0;
  bool crashed_ = false;
  QString failedToStart_;
  qint64 hint_ = 0;        // a run the output named
  QByteArray partial_[2];  // stdout, stderr: the line not yet ended
  QStringList errors_;     // stderr's lines (the last kept)
  std::vector<engine::TrainingEvent> queue_;
};

}  // namespace mrnn::widgets
