#include "widgets/training/rank_process_run.h"

#include <signal.h>
#include <sys/prctl.h>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTimer>
#include <exception>

#include "engine/store/run_store.h"
#include "widgets/native_path.h"
#include "widgets/training/background_job.h"
#include "widgets/training/launcher_output.h"
#include "widgets/training/store_run_follower.h"

namespace mrnn::widgets {
namespace {

// stderr lines kept for the failure's reason: the launcher's and every rank's last words.
constexpr int kErrorLinesKept = 200;

// Lines of rank 0's progress the monitor shows from the store already (its curves and its
// own validation and end lines).
bool shownFromStore(const QString& line) {
  return line.startsWith(QLatin1String("epoch ")) ||
         line.startsWith(QLatin1String("validation at step ")) ||
         line.startsWith(QLatin1String("finished at step ")) ||
         line.startsWith(QLatin1String("stopped at step "));
}

}  // namespace

RankProcessRun::RankProcessRun(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
  timer_->setInterval(kReadIntervalMs);
  connect(timer_, &QTimer::timeout, this, &RankProcessRun::startRead);
}

RankProcessRun::~RankProcessRun() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    process_->disconnect(this);  // nothing is read or reported any more
    process_->terminate();
    if (!process_->waitForFinished(kStopWaitMs)) process_->kill();
    process_->waitForFinished(2000);
  }
}

bool RankProcessRun::start(const Options& options, QString* error) {
  program_ = options.program;
  const QFileInfo project(options.projectFile);
  const bool resume = !options.checkpoint.isEmpty();
  arguments_ = {resume ? QStringLiteral("resume") : QStringLiteral("train"),
                project.absoluteFilePath(), QStringLiteral("--nproc"),
                QString::number(options.processes)};
  if (resume) {
    // A resumed run keeps its own length unless told one: the panel's, as the one-process
    // Resume gives it (engine::lengthOf; --epochs alone means by epochs).
    arguments_ << QStringLiteral("--checkpoint") << options.checkpoint;
    if (options.maxSteps > 0)
      arguments_ << QStringLiteral("--max-steps") << QString::number(options.maxSteps);
    arguments_ << QStringLiteral("--epochs") << QString::number(options.epochs);
  }

  StoreRunFollower::Launch launch;
  launch.projectFolder = toNativePath(project.absolutePath());
  launch.checkpoint = toNativePath(options.checkpoint);
  launch.maxSteps = options.maxSteps;
  launch.epochs = options.epochs;
  try {
    follower_ = std::make_shared<StoreRunFollower>(launch);
  } catch (const std::exception& problem) {
    *error = tr("cannot read the project's runs: %1").arg(QString::fromUtf8(problem.what()));
    return false;
  }

  delete process_;
  process_ = new QProcess(this);
  process_->setWorkingDirectory(project.absolutePath());
  process_->setProcessChannelMode(QProcess::SeparateChannels);
  process_->setStandardInputFile(QProcess::nullDevice());
  // A workbench that dies (kill -9 included) takes its run down with a checkpoint: the kernel
  // sends the launcher SIGTERM, as it would a terminal's Ctrl-C.
  process_->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
  connect(process_, &QProcess::readyReadStandardOutput, this, [this] { readOutput(false, false); });
  connect(process_, &QProcess::readyReadStandardError, this, [this] { readOutput(true, false); });
  connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    onExited(code, status == QProcess::CrashExit);
  });
  process_->start(program_, arguments_);
  if (!process_->waitForStarted(10000)) {
    *error =
        tr("cannot start %1: %2").arg(QDir::toNativeSeparators(program_), process_->errorString());
    delete process_;
    process_ = nullptr;
    return false;
  }
  pid_ = process_->processId();
  follower_->setLauncher(pid_);
  queue_.clear();
  errors_.clear();
  partial_[0].clear();
  partial_[1].clear();
  hint_ = 0;
  reading_ = exited_ = finalRead_ = stopRequested_ = crashed_ = false;
  exitCode_ = 0;
  done_ = false;
  queue_.push_back(
      engine::LogEvent{tr("started %1 (process %2)").arg(commandLine()).arg(pid_).toStdString()});
  timer_->start();
  return true;
}

void RankProcessRun::stop() {
  if (!process_ || exited_ || process_->state() == QProcess::NotRunning) return;
  stopRequested_ = true;
  process_->terminate();  // SIGTERM: the launcher passes it on to every rank
}

std::vector<engine::TrainingEvent> RankProcessRun::drain() {
  std::vector<engine::TrainingEvent> out;
  out.swap(queue_);
  return out;
}

QString RankProcessRun::commandLine() const {
  return (QStringList{QFileInfo(program_).fileName()} + arguments_).join(QLatin1Char(' '));
}

qint64 RankProcessRun::runId() const {
  return follower_ ? follower_->runId() : 0;
}

void RankProcessRun::readOutput(bool standardError, bool flush) {
  QByteArray& partial = partial_[standardError ? 1 : 0];
  partial += standardError ? process_->readAllStandardError() : process_->readAllStandardOutput();
  int end = 0;
  while ((end = partial.indexOf('\n')) >= 0) {
    takeLine(QString::fromLocal8Bit(partial.left(end)), standardError);
    partial.remove(0, end + 1);
  }
  if (flush && !partial.isEmpty()) {
    takeLine(QString::fromLocal8Bit(partial), standardError);
    partial.clear();
  }
}

void RankProcessRun::takeLine(const QString& line, bool standardError) {
  if (line.trimmed().isEmpty()) return;
  if (const qint64 named = runNamedIn(line); named > 0) hint_ = named;
  if (standardError) {
    errors_.append(line);
    if (errors_.size() > kErrorLinesKept) errors_.removeFirst();
  } else if (shownFromStore(line)) {
    return;
  }
  // The ranks' notes (engine::LogEvent::note) reach the banner as a one-process run's do.
  queue_.push_back(engine::LogEvent{line.toStdString(), line.startsWith(QStringLiteral("note: "))});
}

void RankProcessRun::onExited(int code, bool crashed) {
  readOutput(false, true);
  readOutput(true, true);
  exited_ = true;
  exitCode_ = code;
  crashed_ = crashed;
  timer_->stop();
  if (!reading_) startRead();  // else when the read under way has ended
}

void RankProcessRun::startRead() {
  if (reading_ || done_) return;
  reading_ = true;
  const bool last = exited_;
  finalRead_ = finalRead_ || last;
  auto result = std::make_shared<std::vector<engine::TrainingEvent>>();
  auto follower = follower_;
  const qint64 hint = hint_;
  auto* job = new BackgroundJob(
      [follower, result, hint, last](engine::JobContext&) { *result = follower->read(hint, last); },
      this);
  const auto ended = [this, job, last] {
    job->deleteLater();
    reading_ = false;
    if (last) {
      finish();
    } else if (exited_) {
      startRead();  // the launcher exited during this read: one more, the last
    }
  };
  connect(job, &BackgroundJob::succeeded, this, [this, result, ended] {
    for (auto& event : *result) queue_.push_back(std::move(event));
    ended();
  });
  connect(job, &BackgroundJob::failed, this, [this, ended](const QString& reason) {
    // A store being written can be busy for a moment: the next read tries again.
    queue_.push_back(
        engine::LogEvent{tr("could not read the run store: %1").arg(reason).toStdString()});
    ended();
  });
  connect(job, &BackgroundJob::cancelled, this, ended);
  job->start();
}

void RankProcessRun::finish() {
  done_ = true;
  const auto& record = follower_->record();
  const bool clean = !crashed_ && exitCode_ == 0;
  if (clean && record) {
    engine::FinishedEvent finished;
    finished.step = std::max<int64_t>(record->steps, follower_->lastStep());
    finished.stopped = record->status == engine::RunStatus::Stopped ||
                       (stopRequested_ && record->status != engine::RunStatus::Finished);
    finished.bestValid = record->bestValid.value_or(0.0);
    finished.test = record->testResult.value_or(0.0);
    finished.wallSeconds =
        record->durationSeconds > 0 ? record->durationSeconds : follower_->lastWallSeconds();
    queue_.push_back(finished);
    return;
  }
  QString reason = launcherFailureText(errors_);
  if (clean) {
    reason = stopRequested_ ? tr("stopped before the run began: nothing was trained")
                            : tr("mrnn ended without training a run");
  } else if (reason.isEmpty()) {
    reason = crashed_ ? tr("mrnn (process %1) was killed").arg(pid_)
                      : tr("mrnn exited with code %1").arg(exitCode_);
  }
  if (record && follower_->hasCheckpoint()) {
    reason += tr("\nThe run's last checkpoint is intact: resume it from the Runs table.");
  }
  queue_.push_back(
      engine::FailedEvent{record ? record->id : 0, follower_->lastStep(), reason.toStdString()});
}

}  // namespace mrnn::widgets
