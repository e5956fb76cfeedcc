#include "widgets/sampler/checkpoint_list.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QStringList>

#include <algorithm>

#include "engine/store/run_store.h"
#include "engine/training/run_paths.h"

namespace mrnn::widgets {

QString CheckpointEntry::label() const {
  QStringList parts;
  // The run's name is the project's, the same on every line; the model type tells runs apart.
  parts << QStringLiteral("Run %1").arg(runId);
  if (!modelType.isEmpty()) parts << modelType;
  parts << kind;
  if (step > 0) parts << QStringLiteral("step %1").arg(QLocale().toString(step));
  // A latest checkpoint records the best loss so far, not its own; only best shows one.
  if (validLoss && kind == QStringLiteral("best")) {
    parts << QStringLiteral("valid %1 bits/symbol").arg(*validLoss, 0, 'f', 3);
  }
  return parts.join(QStringLiteral(" · "));
}

QList<CheckpointEntry> listCheckpoints(const QString& projectFolder) {
  QList<CheckpointEntry> entries;
  if (projectFolder.isEmpty()) return entries;
  const QDir folder(projectFolder);
  const QString database =
      QString::fromStdString(engine::RunPaths::database(folder.absolutePath().toStdString()));
  // RunStore would create a missing database; a project never trained has none to list.
  if (!QFileInfo::exists(database)) return entries;
  const engine::RunStore store(database.toStdString());
  const auto runs = store.listRuns();
  for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
    auto checkpoints = store.checkpoints(run->id);
    // Best first: it is the one worth sampling from.
    std::stable_sort(checkpoints.begin(), checkpoints.end(), [](const auto& a, const auto& b) {
      return a.kind == "best" && b.kind != "best";
    });
    for (const auto& checkpoint : checkpoints) {
      // Recorded paths are relative to the project folder (older runs: absolute).
      const QString path =
          QDir::cleanPath(folder.absoluteFilePath(QString::fromStdString(checkpoint.path)));
      if (!QFileInfo::exists(path)) continue;
      CheckpointEntry entry;
      entry.runId = run->id;
      entry.runName = QString::fromStdString(run->name);
      entry.modelType = QString::fromStdString(run->modelType);
      entry.kind = QString::fromStdString(checkpoint.kind);
      entry.path = path;
      entry.step = checkpoint.step;
      entry.validLoss = checkpoint.validLoss;
      entry.runStatus = QString::fromStdString(engine::runStatusName(run->status));
      entries.append(entry);
    }
  }
  return entries;
}

}  // namespace mrnn::widgets
