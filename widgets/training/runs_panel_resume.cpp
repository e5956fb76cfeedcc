// The runs panel's Resume: the run's writer asked for at once, its checkpoints read whole on a
// worker thread, and a damaged latest checkpoint met with the best one (a banner link), a file
// of its own so that runs_panel.cpp stays the table and its run actions.

#include <QDir>
#include <QLabel>
#include <memory>

#include "engine/store/run_catalogue.h"
#include "widgets/elided_label.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"
#include "widgets/training/background_job.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_panel.h"

namespace mrnn::widgets {

void RunsPanel::resumeSelected() {
  const QList<qint64> ids = selectedRunIds();
  if (ids.size() != 1 || trainingActive_ || resumeCheck_ != nullptr) return;
  const qint64 runId = ids.first();
  // The catalogue says whether another process writes the run (at once), then reads the
  // checkpoints whole against their checksums: seconds for a large model, so not on this
  // thread.
  try {
    const engine::RunCatalogue catalogue(toNativePath(document_.folder()));
    if (const auto writer = catalogue.writer(runId)) {
      banner_->showMessage(RunBanner::Kind::Failure, tr("Run %1 cannot be resumed").arg(runId),
                           tr("It is being trained by %1. A run has one writer at a time: stop "
                              "it there first.")
                               .arg(QString::fromStdString(writer->describe())));
      return;
    }
  } catch (const std::exception& error) {
    banner_->showMessage(RunBanner::Kind::Failure, tr("Run %1 cannot be resumed").arg(runId),
                         QString::fromUtf8(error.what()));
    return;
  }
  auto point = std::make_shared<engine::ResumePoint>();
  const std::string folder = toNativePath(document_.folder());
  resumeCheck_ = new BackgroundJob(
      [folder, runId, point](engine::JobContext&) {
        *point = engine::RunCatalogue(folder).resumePoint(runId);
      },
      this);
  const auto end = [this] {
    resumeCheck_->deleteLater();
    resumeCheck_ = nullptr;
    updateFooter();
    updateActions();
  };
  connect(resumeCheck_, &BackgroundJob::succeeded, this, [this, end, runId, point] {
    end();
    if (point->checkpoint.empty()) {
      offerBestCheckpoint(runId, *point);
      return;
    }
    const QString checkpoint = fromNativePath(point->checkpoint);
    showMessage(
        tr("Resuming %1 from %2").arg(runTitle(runId), QDir::toNativeSeparators(checkpoint)));
    emit resumeRequested(runId, checkpoint);
  });
  connect(resumeCheck_, &BackgroundJob::failed, this, [this, end, runId](const QString& why) {
    end();
    banner_->showMessage(RunBanner::Kind::Failure, tr("Run %1 cannot be resumed").arg(runId), why);
  });
  footer_->setFullText(tr("Reading the checkpoints of %1…").arg(runTitle(runId)));
  updateActions();
  resumeCheck_->start();
}

void RunsPanel::offerBestCheckpoint(qint64 runId, const engine::ResumePoint& point) {
  if (!point.best) {
    banner_->showMessage(RunBanner::Kind::Failure, tr("Run %1 cannot be resumed").arg(runId),
                         tr("%1; it has no whole best checkpoint either (a run that failed or "
                            "was stopped before its first checkpoint has none).")
                             .arg(QString::fromStdString(point.latestProblem)));
    return;
  }
  const engine::RunCheckpoint best = *point.best;
  const QString figure =
      best.validLoss ? tr(", %1 bits/symbol").arg(*best.validLoss, 0, 'f', 3) : QString();
  banner_->showMessage(
      RunBanner::Kind::Failure,
      tr("Run %1 cannot be resumed from its latest checkpoint").arg(runId),
      tr("%1. Its best checkpoint (step %2%3) is whole: resuming from it trains the steps after "
         "it again.")
          .arg(QString::fromStdString(point.latestProblem), QString::number(best.step), figure));
  banner_->setAction(
      tr("Resume from the best checkpoint (step %1)").arg(best.step), [this, runId, best] {
        if (trainingActive_) return;
        const QString path = fromNativePath(best.path);
        showMessage(tr("Resuming %1 from %2").arg(runTitle(runId), QDir::toNativeSeparators(path)));
        emit resumeRequested(runId, path);
      });
}

}  // namespace mrnn::widgets
