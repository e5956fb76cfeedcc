#pragma once

#include <QColor>
#include <QVector>
#include <QtGlobal>

namespace mrnn::widgets {

// One colour per run in every view that draws runs: the monitor's curves, Surprisal's recovery
// plot and table, the gate inspector's and the hidden-state tree's models A and B. A run's
// colour follows from its id (Tableau 10, distinct at a glance and in print), so run 3 is the
// same green wherever it appears, whatever is shown beside it.
QColor runColour(qint64 runId);

// The colour of a model slot (0: A, 1: B, ...) holding run `runId`; a checkpoint file that is
// no run of the project (runId <= 0) takes a neutral colour of its slot, none of the runs'.
QColor modelColour(qint64 runId, int slot);

// The colours of models compared side by side (slot by slot, as modelColour): a run shown a
// second time (its best and its latest checkpoint) in a darker shade of its colour.
QVector<QColor> modelColours(const QVector<qint64>& runIds);

}  // namespace mrnn::widgets
