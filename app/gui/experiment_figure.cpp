#include "app/gui/experiment_figure.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QTabWidget>

#include <cstdio>
#include <exception>

#include "app/gui/main_window.h"
#include "engine/experiment/experiment_spec.h"
#include "widgets/experiments/experiments_panel.h"
#include "widgets/experiments/results_view.h"

namespace mrnn::app {
namespace {

// The chooser's entry whose data is `value`, or -1 after saying which values `option` takes.
int chosenIndex(const QComboBox* chooser, const QString& value, const char* option) {
  const int index = chooser->findData(value);
  if (index >= 0) return index;
  QStringList values;
  for (int i = 0; i < chooser->count(); ++i) values.append(chooser->itemData(i).toString());
  std::fprintf(stderr, "mrnn-workbench: --%s expects one of %s, not %s\n", option,
               qPrintable(values.join(QStringLiteral(", "))), qPrintable(value));
  return -1;
}

}  // namespace

int saveExperimentFigure(MainWindow& window, const QString& experimentFile, const QString& metric,
                         const QString& axis, const QString& output) {
  widgets::ExperimentsPanel* panel = window.experimentsPanel();
  window.raisePanel(QStringLiteral("experiments"));
  if (!panel->openExperiment(experimentFile)) {
    std::fprintf(stderr, "mrnn-workbench: could not open the experiment %s\n",
                 qPrintable(experimentFile));
    return 1;
  }
  panel->refreshStatus();
  panel->tabs()->setCurrentIndex(1);
  widgets::ResultsView* results = panel->resultsView();
  if (!metric.isEmpty()) {
    const int index = chosenIndex(results->metricChooser(), metric, "metric");
    if (index < 0) return 2;
    results->metricChooser()->setCurrentIndex(index);
  }
  if (!axis.isEmpty()) {
    const int index = chosenIndex(results->axisChooser(), axis, "axis");
    if (index < 0) return 2;
    results->setAxis(index);
  }
  QCoreApplication::processEvents();
  try {
    results->saveFigure(output);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mrnn-workbench: %s\n", error.what());
    return 1;
  }
  return 0;
}

}  // namespace mrnn::app
