#include "widgets/checkpoints/checkpoint_list.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <map>

#include "engine/store/imported_run.h"
#include "engine/store/run_catalogue.h"

namespace mrnn::widgets {

QString CheckpointEntry::label() const {
  QStringList parts;
  // The run's name tells runs apart (its cells and size, its trial's setting, or the user's).
  parts << QStringLiteral("Run %1").arg(runId);
  if (!runName.isEmpty()) {
    parts << runName;
  } else if (!modelType.isEmpty()) {
    parts << modelType;
  }
  if (parameters > 0) parts << QStringLiteral("%1 params").arg(QLocale().toString(parameters));
  // An imported model's checkpoint is the only one it has: "imported" says more than "latest".
  parts << (imported ? QStringLiteral("imported") : kind);
  if (step > 0) parts << QStringLiteral("step %1").arg(QLocale().toString(step));
  // A latest checkpoint records the best loss so far, not its own; only best shows one.
  if (validLoss && kind == QStringLiteral("best")) {
    parts << QStringLiteral("valid %1 bits/symbol").arg(*validLoss, 0, 'f', 3);
  }
  return parts.join(QStringLiteral(" · "));
}

QString CheckpointEntry::details() const {
  return QStringLiteral("%1 · run %2 (%3) · %4\n%5")
      .arg(runName)
      .arg(runId)
      .arg(runStatus, modelType, path);
}

void widenPopupToItems(QComboBox* combo) {
  int widest = 0;
  for (int i = 0; i < combo->count(); ++i) {
    widest = std::max(widest, combo->fontMetrics().horizontalAdvance(combo->itemText(i)));
  }
  combo->view()->setMinimumWidth(widest + 48);  // the scroll bar and the item's margins
}

int preferredCheckpoint(const QList<CheckpointEntry>& entries) {
  int preferred = entries.isEmpty() ? -1 : 0;
  for (int i = 0; i < entries.size(); ++i) {
    const auto& entry = entries[i];
    if (entry.kind != QStringLiteral("best") || !entry.validLoss) continue;
    const auto& current = entries[preferred];
    if (current.kind != QStringLiteral("best") || !current.validLoss ||
        *entry.validLoss < *current.validLoss) {
      preferred = i;
    }
  }
  return preferred;
}

QList<CheckpointEntry> listCheckpoints(const QString& projectFolder) {
  QList<CheckpointEntry> entries;
  if (projectFolder.isEmpty()) return entries;
  const std::string folder = QDir(projectFolder).absolutePath().toStdString();
  // A project never trained has no database to list (and none is created).
  if (!engine::RunCatalogue::exists(folder)) return entries;
  const engine::RunCatalogue catalogue(folder);
  std::map<int64_t, engine::RunRecord> runs;
  for (auto& run : catalogue.runs()) runs[run.id] = std::move(run);
  for (const auto& checkpoint : catalogue.allCheckpoints()) {
    const engine::RunRecord& run = runs[checkpoint.runId];
    CheckpointEntry entry;
    entry.runId = checkpoint.runId;
    entry.runName = QString::fromStdString(run.name);
    entry.modelType = QString::fromStdString(run.modelType);
    entry.kind = QString::fromStdString(checkpoint.kind);
    entry.path = QString::fromStdString(checkpoint.path);
    entry.step = checkpoint.step;
    entry.validLoss = checkpoint.validLoss;
    entry.runStatus = QString::fromStdString(engine::runStatusName(run.status));
    entry.parameters = run.parameters;
    entry.imported = engine::isImportedRun(run);
    entries.append(entry);
  }
  return entries;
}

}  // namespace mrnn::widgets
