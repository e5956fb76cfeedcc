#include "widgets/analysis/analysis_job_bar.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>

#include "widgets/training/background_job.h"

namespace mrnn::widgets {

AnalysisJobBar::AnalysisJobBar(QWidget* parent) : QWidget(parent) {
  progress_ = new QProgressBar(this);
  progress_->setObjectName(QStringLiteral("analysisProgress"));
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  // The bar says where it is in words too: "not run yet", a percentage, "done", "cancelled".
  progress_->setTextVisible(true);
  progress_->setFormat(tr("not run yet"));
  progress_->setMaximumWidth(220);
  status_ = new QLabel(tr("Ready"), this);
  status_->setObjectName(QStringLiteral("analysisStatus"));
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setWordWrap(true);
  cancel_ =
      new QPushButton(style()->standardIcon(QStyle::SP_DialogCancelButton), tr("Cancel"), this);
  cancel_->setObjectName(QStringLiteral("cancelAnalysisButton"));
  cancel_->setToolTip(tr("Stop the analysis; nothing it computed so far is shown"));
  cancel_->setEnabled(false);
  connect(cancel_, &QPushButton::clicked, this, &AnalysisJobBar::cancel);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(progress_);
  layout->addWidget(cancel_);
  layout->addWidget(status_, 1);
}

AnalysisJobBar::~AnalysisJobBar() = default;  // a running BackgroundJob (a child) cancels

bool AnalysisJobBar::run(const QString& what, Work work, std::function<void()> onSuccess) {
  if (isRunning()) return false;
  if (job_) job_->deleteLater();
  what_ = what;
  note_.clear();
  auto* job = new BackgroundJob(std::move(work), this);
  job_ = job;
  connect(job, &BackgroundJob::progress, this, [this](double fraction, const QString& phase) {
    progress_->setValue(static_cast<int>(fraction * 1000.0));
    progress_->setFormat(tr("%p%"));
    status_->setText(phase.isEmpty() ? tr("%1...").arg(what_) : tr("%1: %2...").arg(what_, phase));
    emit progressed();
  });
  connect(job, &BackgroundJob::succeeded, this, [this, onSuccess = std::move(onSuccess)] {
    const double seconds =
        static_cast<double>(QDateTime::currentMSecsSinceEpoch() - startedMs_) / 1000.0;
    progress_->setValue(1000);
    if (onSuccess) onSuccess();
    const QString done = tr("%1: done in %2 s").arg(what_).arg(seconds, 0, 'f', 1);
    end(true, note_.isEmpty() ? done : tr("%1. %2").arg(done, note_));
  });
  connect(job, &BackgroundJob::cancelled, this,
          [this] { end(false, tr("%1: cancelled").arg(what_)); });
  connect(job, &BackgroundJob::failed, this, [this](const QString& reason) {
    end(false, tr("%1 failed: %2").arg(what_, reason), true);
    emit failed(reason);
  });
  startedMs_ = QDateTime::currentMSecsSinceEpoch();
  progress_->setValue(0);
  progress_->setFormat(tr("%p%"));
  status_->setText(tr("%1...").arg(what_));
  status_->setStyleSheet(QString());
  cancel_->setEnabled(true);
  job->start();
  emit started();
  return true;
}

bool AnalysisJobBar::isRunning() const {
  return job_ && job_->isRunning();
}

void AnalysisJobBar::cancel() {
  if (!isRunning()) return;
  status_->setText(tr("%1: cancelling...").arg(what_));
  job_->cancel();
}

QString AnalysisJobBar::status() const {
  return status_->text();
}

void AnalysisJobBar::end(bool ok, const QString& status, bool error) {
  cancel_->setEnabled(false);
  if (!ok) progress_->setValue(0);
  progress_->setFormat(ok ? tr("done") : error ? tr("failed") : tr("cancelled"));
  status_->setText(status);
  // Failures are the one thing the user must not miss.
  status_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
  emit finished(ok);
}

}  // namespace mrnn::widgets
