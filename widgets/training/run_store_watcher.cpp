#include "widgets/training/run_store_watcher.h"

#include <QTimer>
#include <exception>
#include <vector>

#include "engine/store/metric_names.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_store.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {

RunStoreWatcher::RunStoreWatcher(ProjectDocument& document, QObject* parent, int intervalMs)
    : QObject(parent), document_(document), timer_(new QTimer(this)) {
  timer_->setInterval(intervalMs);
  connect(timer_, &QTimer::timeout, this, &RunStoreWatcher::checkNow);
  // Another project: start from its picture, without announcing it as a change.
  connect(&document_, &ProjectDocument::pathChanged, this, [this] { last_ = picture(); });
  last_ = picture();
  timer_->start();
}

bool RunStoreWatcher::checkNow() {
  const Picture now = picture();
  const bool runs = now.runs != last_.runs;
  const bool checkpoints = now.checkpoints != last_.checkpoints;
  last_ = now;
  if (runs) emit runsChanged();
  if (checkpoints) emit checkpointsChanged();
  return runs || checkpoints;
}

RunStoreWatcher::Picture RunStoreWatcher::picture() const {
  if (document_.isUntitled()) return {};
  try {
    const std::string folder = toNativePath(document_.folder());
    if (!engine::RunCatalogue::exists(folder)) return {};
    const engine::RunCatalogue catalogue(folder);
    Picture picture;
    const std::vector<engine::RunRecord> runs = catalogue.runs();
    for (const engine::RunRecord& run : runs) {
      picture.runs += QStringLiteral("%1:%2:%3:%4")
                          .arg(run.id)
                          .arg(static_cast<int>(run.status))
                          .arg(run.steps)
                          .arg(QString::fromStdString(run.name));
      if (run.status == engine::RunStatus::Running) {
        // The runs table's step count moves at checkpoints only; the loss points as it trains.
        for (const engine::MetricSummary& metric : catalogue.store().metricSummaries(run.id)) {
          if (metric.name == engine::metric::kTrainLoss) {
            picture.runs += QStringLiteral(":%1").arg(metric.points);
          }
        }
      }
      picture.runs += QLatin1Char(';');
    }
    // The choosers list checkpoints by their runs' names: a renamed run is a change for them.
    for (const engine::RunRecord& run : runs) {
      picture.checkpoints += QString::fromStdString(run.name) + QLatin1Char('|');
    }
    for (const engine::RunCheckpoint& checkpoint : catalogue.allCheckpoints()) {
      picture.checkpoints += QStringLiteral("%1:%2:%3:%4;")
                                 .arg(checkpoint.runId)
                                 .arg(QString::fromStdString(checkpoint.kind))
                                 .arg(checkpoint.step)
                                 .arg(checkpoint.validLoss.value_or(-1.0));
    }
    return picture;
  } catch (const std::exception&) {
    // A store being created or replaced: read it next time.
    return {QStringLiteral("unreadable"), QStringLiteral("unreadable")};
  }
}

}  // namespace mrnn::widgets
