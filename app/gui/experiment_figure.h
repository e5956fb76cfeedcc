#pragma once

#include <QString>

namespace mrnn::app {

class MainWindow;

// The Experiments panel's figure of one experiment (its metric against the first cell axis,
// error bars over the seeds), saved as its Save figure button saves it (PNG, SVG or PDF by
// the suffix), for pages that show an experiment's results: `mrnn-workbench --figure FILE
// --experiment EXPERIMENT.yaml [--metric NAME] [--axis KEY]`, `axis` an axis's key path (the
// first cell axis when empty). The window must have the experiment's project open and be
// shown. Returns the process's exit status; says what went wrong on stderr.
int saveExperimentFigure(MainWindow& window, const QString& experimentFile, const QString& metric,
                         const QString& axis, const QString& output);

}  // namespace mrnn::app
