#pragma once

#include <QString>
#include <QVector>

#include "widgets/training/run_curves.h"

namespace mrnn::widgets {

// Runs of one configuration trained with different seeds, as one curve per metric (W&B's run
// grouping): at each step every run reached, the mean of their values (and of their epochs,
// times and symbols, for the other x axes) and the sample standard deviation of the values.
// Steps some run has not reached yet are left out, so the mean never mixes fewer runs in.
// The group takes its first run's id (its colour); members() lists them all.
RunCurves seedGroupCurves(const QVector<RunCurves>& runs, const QString& label);

// The label of a group: "exp: cell=lstm · mean ± std of 3 runs" from its runs' labels
// ("run 4 · exp #1: cell=lstm, seed 1"), the run number and the seed dropped.
QString seedGroupLabel(const QVector<RunCurves>& runs);

}  // namespace mrnn::widgets
