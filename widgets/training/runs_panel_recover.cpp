// The runs panel's recovery: runs whose checkpoints the run database does not record (it was
// deleted, moved aside, restored from an older copy, or is damaged) offered in the banner and
// recorded again from their checkpoints on a worker thread.

#include <QDir>
#include <QProgressBar>
#include <QToolButton>
#include <memory>
#include <string>

#include "engine/store/run_paths.h"
#include "engine/training/run_recovery.h"
#include "widgets/display_format.h"
#include "widgets/elided_label.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"
#include "widgets/training/background_job.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_panel.h"

namespace mrnn::widgets {
namespace {

// "1, 2 and 5"
QString idList(const QList<qint64>& ids) {
  QStringList words;
  for (const qint64 id : ids) words << QString::number(id);
  if (words.size() < 2) return words.join(QString());
  const QString last = words.takeLast();
  return RunsPanel::tr("%1 and %2").arg(words.join(QStringLiteral(", ")), last);
}

}  // namespace

QList<qint64> RunsPanel::unrecordedRunIds(const QString& folder,
                                          const std::vector<engine::RunRecord>& runs) {
  QList<qint64> ids;
  for (const int64_t id : engine::unrecordedRuns(toNativePath(folder), runs)) ids << id;
  return ids;
}

void RunsPanel::offerRecovery(const QList<qint64>& unrecorded, bool damaged) {
  if (recovery_ != nullptr || (unrecorded == offeredUnrecorded_ && damaged == offeredDamaged_)) {
    return;
  }
  // A failure in view (a delete whose files could not all go) is not covered by the offer; it
  // comes at the next refresh once that is closed.
  if (!damaged && !banner_->isHidden() && banner_->kind() == RunBanner::Kind::Failure) return;
  offeredUnrecorded_ = unrecorded;
  offeredDamaged_ = damaged;
  // An offer still in view whose runs were recorded since (by `mrnn runs recover`, another
  // window) goes: its link would find nothing to do.
  if (!offerTitle_.isEmpty() && !banner_->isHidden() && banner_->text().startsWith(offerTitle_)) {
    banner_->hide();
  }
  offerTitle_.clear();
  const QString database = QDir::toNativeSeparators(
      fromNativePath(engine::RunPaths::database(toNativePath(document_.folder()))));
  if (damaged) {
    offerTitle_ = tr("The run database cannot be read");
    banner_->showMessage(
        RunBanner::Kind::Failure, offerTitle_,
        tr("%1 is damaged, or is not a run database; nothing has changed it.\n"
           "Setting it aside renames it %1.damaged-<time> (kept whole, for SQLite's own tools "
           "to mend) and records each run again from its checkpoints: its model, step, "
           "training time and best validation. The curves were in the database and stay "
           "there.")
            .arg(database));
    banner_->setAction(tr("Set it aside and recover the runs"), [this] { recoverRuns(true); });
  } else if (!unrecorded.isEmpty()) {
    const bool one = unrecorded.size() == 1;
    offerTitle_ = one ? tr("Run %1 is not in the run database").arg(unrecorded.first())
                      : tr("%1 runs are not in the run database").arg(unrecorded.size());
    banner_->showMessage(
        RunBanner::Kind::Information, offerTitle_,
        tr("The checkpoints of %1 %2 are in the project, but %3 does not record them (it "
           "was deleted, moved aside or restored from an older copy). Recover records each "
           "from its checkpoints: its model, step, training time and best validation; its "
           "curves were in the database that recorded it.")
            .arg(one ? tr("run") : tr("runs"), idList(unrecorded), database));
    banner_->setAction(tr("Recover them"), [this] { recoverRuns(false); });
  }
}

void RunsPanel::recoverRuns(bool setAsideFirst) {
  if (recovery_ != nullptr || document_.isUntitled()) return;
  const std::string folder = toNativePath(document_.folder());
  auto recovery = std::make_shared<engine::RunRecovery>();
  auto aside = std::make_shared<std::string>();
  recovery_ = new BackgroundJob(
      [folder, setAsideFirst, recovery, aside](engine::JobContext& context) {
        if (setAsideFirst) *aside = engine::setAsideRunDatabase(folder);
        *recovery = engine::recoverRuns(folder, &context);
      },
      this);
  const auto end = [this] {
    recovery_->deleteLater();
    recovery_ = nullptr;
    offeredUnrecorded_.clear();
    offeredDamaged_ = false;
    progress_->setRange(0, 1000);
    progress_->setVisible(false);
  };
  connect(recovery_, &BackgroundJob::progress, this, [this](double fraction, const QString& phase) {
    progress_->setRange(0, 1000);
    progress_->setValue(static_cast<int>(fraction * 1000));
    footer_->setFullText(tr("Recovering runs from their checkpoints: %1…").arg(phase));
  });
  connect(recovery_, &BackgroundJob::succeeded, this, [this, end, recovery, aside] {
    end();
    QList<qint64> ids;
    for (const auto& run : recovery->recovered) ids << run.id;
    QString detail;
    if (!aside->empty()) {
      detail += tr("The damaged database is kept as %1.\n")
                    .arg(QDir::toNativeSeparators(fromNativePath(*aside)));
    }
    if (!ids.isEmpty()) {
      detail +=
          tr("Their curves and test figures were in the lost database: Evaluate scores a "
             "run on test again, and each resumes from its latest checkpoint.");
    }
    for (const auto& run : recovery->recovered) {
      if (run.unreadable.empty()) continue;
      detail += tr("\nRun %1 was recovered without a checkpoint that could not be read: %2")
                    .arg(run.id)
                    .arg(QString::fromStdString(run.unreadable));
    }
    for (const std::string& skipped : recovery->skipped) {
      detail += tr("\nLeft as it was: %1").arg(QString::fromStdString(skipped));
    }
    const QString title =
        ids.isEmpty()
            ? tr("No run was recovered")
            : (ids.size() == 1 ? tr("Recovered run %1") : tr("Recovered runs %1")).arg(idList(ids));
    banner_->showMessage(ids.isEmpty() && !recovery->skipped.empty() ? RunBanner::Kind::Failure
                                                                     : RunBanner::Kind::Success,
                         title, detail.trimmed());
    refresh();
    selectRuns(ids);
    showMessage(title);
  });
  connect(recovery_, &BackgroundJob::failed, this, [this, end](const QString& why) {
    end();
    banner_->showMessage(RunBanner::Kind::Failure, tr("The runs were not recovered"), why);
    refresh();
    showMessage(tr("The runs were not recovered: %1").arg(why));
  });
  connect(recovery_, &BackgroundJob::cancelled, this, [this, end] {
    end();
    refresh();
  });
  progress_->setRange(0, 0);  // busy: checkpoints are read whole, one after another
  progress_->setVisible(true);
  footer_->setFullText(tr("Recovering runs from their checkpoints…"));
  recovery_->start();
}

}  // namespace mrnn::widgets
