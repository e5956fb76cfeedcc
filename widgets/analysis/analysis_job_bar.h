#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>
#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace mrnn::engine {
class JobContext;
}

namespace mrnn::widgets {

class BackgroundJob;

// The run/progress/cancel strip every analysis view shares: runs one piece of work at a time
// on an engine thread (BackgroundJob), shows its progress and phase, offers Cancel, and says
// how it ended. Results travel through state the caller shares with the work; `onSuccess`
// runs on the GUI thread once the work has finished, so it may read that state.
class AnalysisJobBar : public QWidget {
  Q_OBJECT

 public:
  using Work = std::function<void(engine::JobContext&)>;

  explicit AnalysisJobBar(QWidget* parent = nullptr);
  ~AnalysisJobBar() override;

  // Starts `work` ("Scoring the text" names it in the status); false (nothing started) while
  // another job of this bar runs.
  bool run(const QString& what, Work work, std::function<void()> onSuccess);
  bool isRunning() const;
  // The job stops at its next progress report; the status then reads "Cancelled".
  void cancel();
  // How the last job ended, in words ("Done in 1.2 s", "Cancelled", "Failed: ...").
  QString status() const;
  // From a job's onSuccess: a sentence the "done" status ends with (what the job changed);
  // each run starts without one.
  void setSuccessNote(const QString& note) { note_ = note; }

  QProgressBar* progressBar() const { return progress_; }
  QPushButton* cancelButton() const { return cancel_; }

 signals:
  void started();
  // The work reported progress (on the GUI thread): a view may draw what is ready so far.
  void progressed();
  // After onSuccess (when it succeeded). `ok` is false when cancelled or failed.
  void finished(bool ok);
  void failed(const QString& reason);

 private:
  void end(bool ok, const QString& status, bool error = false);

  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPointer<BackgroundJob> job_;
  QString what_;
  QString note_;
  qint64 startedMs_ = 0;
};

}  // namespace mrnn::widgets
