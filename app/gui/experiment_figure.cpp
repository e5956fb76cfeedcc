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
    if (results->metricChooser()->findData(metric) < 0) {
      QStringList names;
      for (int i = 0; i < results->metricChooser()->count(); ++i) {
        names.append(results->metricChooser()->itemData(i).toString());
      }
      std::fprintf(stderr, "mrnn-workbench: --metric expects one of %s, not %s\n",
                   qPrintable(names.join(QStringLiteral(", "))), qPrintable(metric));
      return 2;
    }
    results->setMetric(metric.toStdString());
  }
  if (!axis.isEmpty()) {
    const int index = results->axisChooser()->findData(axis);
    if (index < 0) {
      QStringList keys;
      for (int i = 0; i < results->axisChooser()->count(); ++i) {
        keys.append(results->axisChooser()->itemData(i).toString());
      }
      std::fprintf(stderr, "mrnn-workbench: --axis expects one of %s, not %s\n",
                   qPrintable(keys.join(QStringLiteral(", "))), qPrintable(axis));
      return 2;
    }
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
