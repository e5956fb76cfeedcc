#pragma once

#include <QList>
#include <QString>

#include <optional>

class QComboBox;

namespace mrnn::widgets {

// One checkpoint file of a project's run, as the sampler's chooser lists it.
struct CheckpointEntry {
  qint64 runId = 0;
  QString runName;
  QString modelType;  // "mlstm", "mlstm x2"
  QString kind;       // "best" or "latest"
  QString path;       // absolute
  qint64 step = 0;
  std::optional<double> validLoss;  // bits per symbol, when validated
  QString runStatus;                // "finished", "running", ...
  qint64 parameters = 0;
  bool imported = false;  // a model brought in from a file (engine::isImportedRun)

  // "Run 3 · mlstm · 441,440 params · best · step 1,200 · valid 1.920 bits/symbol".
  QString label() const;
  // The run's name, status and file, for a tooltip.
  QString details() const;
};

// Which entry a chooser offers first: the best checkpoint with the lowest validation loss
// (the model worth looking at), else the first; -1 for none.
int preferredCheckpoint(const QList<CheckpointEntry>& entries);

// A chooser's closed box may be narrow; its open list shows every label whole.
void widenPopupToItems(QComboBox* combo);

// The checkpoints of the runs in `projectFolder` (runs.sqlite there), newest run first, its
// best before its latest; only files that exist. An empty list when the folder has no run
// database yet (none is created). Throws std::runtime_error naming a database it cannot read.
QList<CheckpointEntry> listCheckpoints(const QString& projectFolder);

}  // namespace mrnn::widgets
