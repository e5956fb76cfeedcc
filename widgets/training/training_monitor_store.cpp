// The training monitor's side that reads the run store: the runs drawn beside the live one
// (picked, or the project's newest), following what other processes write, and the names
// runs record. The rest of the panel is in training_monitor_panel.cpp.
#include <QComboBox>
#include <QFileInfo>
#include <QHash>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <exception>

#include "engine/analysis/analysis_job.h"
#include "engine/config/seed_groups.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"
#include "widgets/training/background_job.h"
#include "widgets/training/hessian_free_step_view.h"
#include "widgets/training/rank_throughput_view.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/run_curves.h"
#include "widgets/training/seed_group_curves.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_monitor_panel.h"

namespace mrnn::widgets {

QString TrainingMonitorPanel::databasePath() const {
  if (document_.isUntitled()) return QString();
  return fromNativePath(engine::RunPaths::database(toNativePath(document_.folder())));
}

QString TrainingMonitorPanel::storedRunName(qint64 runId) const {
  try {
    const std::string folder = toNativePath(document_.folder());
    if (document_.isUntitled() || !engine::RunCatalogue::exists(folder)) return QString();
    const auto run = engine::RunCatalogue(folder).run(runId);
    return run ? QString::fromStdString(run->name) : QString();
  } catch (const std::exception&) {
    return QString();  // the label falls back on the model's name
  }
}

void TrainingMonitorPanel::setOverlayRuns(const QList<qint64>& runIds) {
  followingProject_ = false;
  overlayIds_ = runIds;
  QList<qint64> shown;
  // The live run (training, or trained last) is drawn already: overlaying it would draw it
  // twice.
  const bool liveShown = !charts_->liveCurves().isEmpty() || runActive_;
  for (qint64 id : runIds) {
    if (!(liveShown && id == liveRunId_) && !shown.contains(id)) shown.append(id);
  }
  loadCurves(shown, false);
}

void TrainingMonitorPanel::setGroupSeeds(bool grouped) {
  groupSeeds_->setChecked(grouped);  // its toggled() reads the overlays again
}

bool TrainingMonitorPanel::groupsSeeds() const {
  return groupSeeds_->isChecked();
}

void TrainingMonitorPanel::showProjectRuns() {
  if (runActive_ || document_.isUntitled()) return;
  QList<qint64> ids;
  try {
    const std::string folder = toNativePath(document_.folder());
    if (engine::RunCatalogue::exists(folder)) {
      const auto runs = engine::RunCatalogue(folder).runs();
      for (auto run = runs.rbegin(); run != runs.rend() && ids.size() < kProjectRunsShown; ++run) {
        // A run another process is training counts before its first checkpoint records steps.
        if (run->steps > 0 || run->status == engine::RunStatus::Running) ids.prepend(run->id);
      }
    }
  } catch (const std::exception& error) {
    appendLog(tr("could not read the project's runs: %1").arg(QString::fromUtf8(error.what())));
  }
  setOverlayRuns(ids);
  followingProject_ = true;
}

void TrainingMonitorPanel::openProject() {
  // What the monitor shows belongs to one project: another one starts from a clean view.
  if (!runActive_) {
    banner_->hide();
    notes_.clear();
    log_->clear();
    liveRunId_ = 0;
    liveRunName_.clear();  // run ids are the project's: another project's run 1 is another run
    haveStep_ = false;
    haveBest_ = false;
    lastStep_ = engine::StepEvent();
    progress_->setValue(0);
    rankView_->clear();
    hessianFreeView_->clear();
    charts_->clear();
    updateStats();
  }
  showProjectRuns();
}

void TrainingMonitorPanel::followStore() {
  if (runActive_ || document_.isUntitled()) return;
  if (followingProject_) {
    showProjectRuns();
    return;
  }
  // Runs deleted since they were chosen leave the selection; with none left, the monitor
  // follows the project again (a trial training now, say) rather than showing nothing.
  QList<qint64> remaining;
  try {
    const std::string folder = toNativePath(document_.folder());
    if (engine::RunCatalogue::exists(folder)) {
      const engine::RunCatalogue catalogue(folder);
      for (const engine::RunRecord& run : catalogue.runs()) {
        if (overlayIds_.contains(run.id)) remaining.append(run.id);
      }
    }
  } catch (const std::exception&) {
    return;  // being replaced: read again at the next change
  }
  if (remaining.isEmpty()) {
    showProjectRuns();
  } else {
    setOverlayRuns(remaining);
  }
}

void TrainingMonitorPanel::preferFairAxis() {
  if (!charts_->mixesUpdateRules() || charts_->xAxis() != TrainingCharts::XAxis::Step) return;
  xAxis_->setCurrentIndex(xAxis_->findData(static_cast<int>(TrainingCharts::XAxis::Symbols)));
  appendLog(
      tr("The runs shown mix Hessian-free and first-order steps, which differ in what "
         "a step reads: the charts plot them against the training symbols read (the X "
         "axis box chooses another)."));
}

void TrainingMonitorPanel::loadCurves(const QList<qint64>& runIds, bool history) {
  const QString database = databasePath();
  const int generation = history ? 0 : ++curveLoads_;
  if (runIds.isEmpty() || database.isEmpty() || !QFileInfo::exists(database)) {
    if (!history) {
      charts_->setOverlays({});
      emit overlaysLoaded(0);
    }
    return;
  }
  // The store is opened on the worker thread: one RunStore per thread.
  auto result = std::make_shared<QVector<RunCurves>>();
  const std::string path = toNativePath(database);
  const bool grouped = !history && groupsSeeds();
  auto* job = new BackgroundJob(
      [result, path, runIds, grouped](engine::JobContext& context) {
        engine::RunStore store(path, engine::RunStore::Access::ReadOnly);
        std::vector<std::pair<int64_t, std::string>> configs;
        QHash<qint64, RunCurves> curves;
        for (int i = 0; i < runIds.size(); ++i) {
          context.report(static_cast<double>(i) / runIds.size(), "reading curves");
          const auto record = store.run(runIds[i]);
          if (!record) continue;  // deleted meanwhile
          const QString label = QStringLiteral("run %1 · %2")
                                    .arg(runIds[i])
                                    .arg(QString::fromStdString(record->name));
          curves.insert(runIds[i], RunCurves::fromStore(store, runIds[i], label));
          configs.emplace_back(runIds[i], record->configYaml);
        }
        // One entry per configuration when seeds are grouped, else one per run.
        if (!grouped) {
          for (const auto& config : configs) result->append(curves.value(config.first));
          return;
        }
        for (const auto& group : engine::groupBySeed(configs)) {
          QVector<RunCurves> members;
          for (const int64_t id : group) members.append(curves.value(id));
          result->append(members.size() > 1 ? seedGroupCurves(members, seedGroupLabel(members))
                                            : members.first());
        }
      },
      this);
  connect(job, &BackgroundJob::succeeded, this, [this, job, result, history, generation] {
    job->deleteLater();
    if (history) {
      if (!result->isEmpty()) charts_->setLiveHistory(result->first());
      return;
    }
    if (generation != curveLoads_) return;  // a newer selection is on its way
    charts_->setOverlays(*result);
    preferFairAxis();
    refreshView();
    emit overlaysLoaded(result->size());
  });
  connect(job, &BackgroundJob::failed, this, [this, job](const QString& reason) {
    job->deleteLater();
    appendLog(tr("could not read run curves from the database: %1").arg(reason));
  });
  connect(job, &BackgroundJob::cancelled, job, &QObject::deleteLater);
  job->start();
}

}  // namespace mrnn::widgets
