#include "app/gui/experiment_figure.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QTabWidget>

#include <cstdio>
#include <exception>

#include "app/gui/main_window.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/io/output_file.h"
#include "widgets/experiments/experiments_panel.h"
#include "widgets/experiments/results_view.h"
#include "widgets/export/figure_export.h"

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
    // No dialog asked: only a figure the workbench saved earlier is replaced.
    engine::OutputRules rules;
    rules.ownOutput = [](const std::string& existing) {
      return widgets::isWorkbenchFigure(QFile::decodeName(existing.c_str()));
    };
    rules.howToReplace = "delete it first to replace it";
    engine::checkOutputPath(QFile::encodeName(output).toStdString(), rules);
    results->saveFigure(output);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mrnn-workbench: %s\n", error.what());
    return 1;
  }
  return 0;
}

}  // namespace mrnn::app
