#include "app/gui/screenshot_showcase.h"

#include <algorithm>
#include <exception>
#include <utility>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDockWidget>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

#include <qcustomplot.h>

#include "app/gui/main_window.h"
#include "engine/store/run_catalogue.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/checkpoints/checkpoint_list.h"
#include "widgets/data/data_panel.h"
#include "widgets/experiments/experiments_panel.h"
#include "widgets/gates/activation_text_view.h"
#include "widgets/gates/gate_heatmap.h"
#include "widgets/gates/gate_inspector_panel.h"
#include "widgets/gates/pattern_finder_view.h"
#include "widgets/masking/masking_panel.h"
#include "widgets/masking/size_validation_panel.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"
#include "widgets/sampler/sampler_console.h"
#include "widgets/sampler/sampling_controller.h"
#include "widgets/sampler/sampling_options_form.h"
#include "widgets/surprisal/surprisal_difference_list.h"
#include "widgets/surprisal/surprisal_panel.h"
#include "widgets/surprisal/surprisal_scale.h"
#include "widgets/surprisal/surprisal_text_view.h"
#include "widgets/training/config_diff_dialog.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_monitor_panel.h"
#include "widgets/tree/hidden_state_tree_panel.h"

namespace mrnn::app {
namespace {

// Turns the event loop until `done` or the deadline.
template <typename Done>
void waitFor(Done done, int milliseconds) {
  QDeadlineTimer deadline(milliseconds);
  while (!done() && !deadline.hasExpired()) {
    QEventLoop loop;
    QTimer::singleShot(50, &loop, &QEventLoop::quit);
    loop.exec();
  }
}

// Starts an analysis view's job and waits for it to end.
template <typename Panel>
void runAndWait(Panel* panel) {
  bool ended = false;
  const auto connection =
      QObject::connect(panel, &Panel::analysisFinished, [&ended](bool) { ended = true; });
  panel->runAnalysis();
  waitFor([&ended] { return ended; }, 240'000);
  QObject::disconnect(connection);
}

// The newest run's best checkpoint, and the newest run's of another model type (the
// comparison), from the project's runs; empty strings when there are none.
std::pair<QString, QString> showcaseCheckpoints(const QString& folder) {
  QList<widgets::CheckpointEntry> entries;
  try {
    entries = widgets::listCheckpoints(folder);
  } catch (const std::exception&) {
    return {};
  }
  QString first;
  QString firstType;
  QString other;
  for (const auto& entry : entries) {
    if (entry.kind != QLatin1String("best")) continue;
    if (first.isEmpty()) {
      first = entry.path;
      firstType = entry.modelType;
    } else if (other.isEmpty() && entry.modelType != firstType) {
      other = entry.path;
    }
  }
  return {first, other};
}

// The experiment's results when it has some (its set-up otherwise), as after a queue ran.
QWidget* showcaseExperiments(MainWindow& window) {
  widgets::ExperimentsPanel* panel = window.experimentsPanel();
  panel->refreshStatus();
  bool measured = false;
  for (const auto& result : panel->snapshot().results) measured |= result.validLoss.count > 0;
  if (measured) panel->tabs()->setCurrentIndex(1);
  return &window;
}

// A range of the gates' text brushed on the map (its symbols readable along the time axis,
// the units that follow it ranked), as after a Shift+drag.
void brushGates(widgets::GateInspectorPanel* view) {
  view->selectProbe(1, QStringLiteral("c"));
  const int steps = view->heatmap()->steps();
  if (steps < 8) return;
  // The first quotation: from the first '"' to the next.
  const auto& symbols = view->report(0)->symbols;
  int open = -1;
  int close = -1;
  for (int t = 0; t < steps; ++t) {
    if (symbols[static_cast<size_t>(t)] != "\"") continue;
    if (open < 0) {
      open = t;
    } else {
      close = t;
      break;
    }
  }
  if (open < 0 || close < 0) return;
  view->textView()->selectSteps({open + 1, close});
  view->setPattern(widgets::PatternFinderView::Pattern::Selection);
  view->findUnits();
  const auto& found = view->patternFinder()->results();
  if (!found.empty()) view->selectUnit(static_cast<int>(found.front().unit.unit));
  for (widgets::GateHeatmap* map : {view->heatmap(), view->comparisonHeatmap()}) {
    map->plot()->xAxis->setRange(-0.5, std::min(steps, close + 8) - 0.5);
    map->plot()->replot();
  }
}

// Two runs of the project compared key by key (Runs > Compare).
QWidget* showcaseComparison(MainWindow& window) {
  const QString folder = window.document().folder();
  const auto runs = engine::RunCatalogue(widgets::toNativePath(folder)).runs();
  if (runs.size() < 2) return &window;
  // The newest run against the newest of another model type (else of other settings).
  const auto& newest = runs.back();
  const engine::RunRecord* other = nullptr;
  for (auto run = runs.rbegin() + 1; run != runs.rend() && !other; ++run) {
    if (run->modelType != newest.modelType) other = &*run;
  }
  for (auto run = runs.rbegin() + 1; run != runs.rend() && !other; ++run) {
    if (run->configYaml != newest.configYaml) other = &*run;
  }
  if (other) {
    window.runsPanel()->selectRuns({other->id, newest.id});
    window.runsPanel()->diffSelected();
  }
  QWidget* dialog = window.runsPanel()->findChild<widgets::ConfigDiffDialog*>();
  if (!dialog) return &window;
  dialog->resize(std::min(window.width(), 1200), std::min(window.height(), 760));
  return dialog;
}

QWidget* showcaseAnalysis(MainWindow& window, const QString& panel, const QString& state) {
  const auto [model, comparison] = showcaseCheckpoints(window.document().folder());
  if (panel == QLatin1String("sizes")) {
    window.sizeValidationPanel()->refresh();
  } else if (panel == QLatin1String("gates")) {
    auto* view = window.gateInspector();
    view->setCheckpoint(model);
    view->setText(QStringLiteral(
        "\"Come live with me and be my love,\" she sang, \"and we will all the pleasures "
        "prove.\"\nThe shepherd swains shall dance and sing for thy delight each May morning."));
    runAndWait(view);
    // The memory cell's unit that best follows "inside quotes", as Karpathy's pictures show.
    view->selectProbe(1, QStringLiteral("c"));
    view->setPattern(widgets::PatternFinderView::Pattern::InsideQuotes);
    view->findUnits();
    const auto& found = view->patternFinder()->results();
    if (!found.empty()) view->selectUnit(static_cast<int>(found.front().unit.unit));
    if (state == QLatin1String("brushed")) brushGates(view);
  } else if (panel == QLatin1String("tree")) {
    auto* view = window.treePanel();
    view->setCheckpoint(model);
    view->setComparisonCheckpoint(comparison);
    view->setContext(QStringLiteral("And the "));
    view->setDepth(3);
    view->setBranching(3);
    runAndWait(view);
  } else if (panel == QLatin1String("surprisal")) {
    auto* view = window.surprisalPanel();
    view->setCheckpoint(model);
    view->setComparisonCheckpoint(1, comparison);
    view->setTextSource(widgets::SurprisalPanel::ValidationSplit);
    runAndWait(view);
    if (state == QLatin1String("difference") && view->textView()->difference()) {
      view->textView()->setColourBy(widgets::ColourBy::Difference);
      view->differenceList()->setCurrentCell(0, 0);
    }
  } else if (panel == QLatin1String("masking")) {
    auto* view = window.maskingPanel();
    view->setCheckpoint(model);
    view->setComparisonCheckpoint(comparison);
    view->setRuns(2);
    view->setMaxSymbols(6000);
    runAndWait(view);
  } else {
    return &window;
  }
  QDockWidget* dock = window.dock(panel);
  dock->setFloating(true);
  dock->resize(window.size());
  dock->show();
  return dock;
}

}  // namespace

QString showcaseViewPanel(const QString& view) {
  if (view == QLatin1String("seeds")) return QStringLiteral("training");
  if (view == QLatin1String("brushed")) return QStringLiteral("gates");
  if (view == QLatin1String("difference")) return QStringLiteral("surprisal");
  if (view == QLatin1String("compare")) return QStringLiteral("runs");
  return {};
}

QStringList showcaseViews() {
  return {QStringLiteral("seeds"), QStringLiteral("brushed"), QStringLiteral("difference"),
          QStringLiteral("compare")};
}

QWidget* prepareShowcase(MainWindow& window, const QString& panel, const QString& view) {
  waitFor([&window] { return !window.dataPanel()->isScanning(); }, 30'000);
  const QString folder = window.document().folder();
  if (folder.isEmpty() || !engine::RunCatalogue::exists(widgets::toNativePath(folder))) {
    return &window;
  }
  // The monitor shows the project's runs by itself, as a user opening it sees them.
  waitFor([&window] { return window.trainingMonitor()->charts()->overlayCount() > 0; }, 10'000);
  if (view == QLatin1String("seeds")) {
    // The experiment's runs, its seeds as one mean and band per configuration.
    widgets::TrainingMonitorPanel* monitor = window.trainingMonitor();
    const int before = monitor->charts()->overlayCount();
    monitor->setGroupSeeds(true);
    waitFor([monitor, before] { return monitor->charts()->overlayCount() != before; }, 10'000);
    return &window;
  }
  if (view == QLatin1String("compare")) return showcaseComparison(window);
  if (panel == QLatin1String("experiments")) return showcaseExperiments(window);
  if (!panel.isEmpty() && panel != QLatin1String("training") && panel != QLatin1String("runs") &&
      panel != QLatin1String("sampler") && panel != QLatin1String("data") &&
      panel != QLatin1String("summary") && panel != QLatin1String("yaml")) {
    return showcaseAnalysis(window, panel, view);
  }

  widgets::SamplerConsole* sampler = window.samplerConsole();
  waitFor([sampler] { return !sampler->controller()->isBusy(); }, 60'000);
  sampler->optionsForm()->setPrime(QStringLiteral("The "));
  sampler->optionsForm()->setCompletions(3);
  sampler->optionsForm()->setLength(240);
  sampler->optionsForm()->setTemperature(0.8);
  bool ended = false;
  QObject::connect(sampler, &widgets::SamplerConsole::generationEnded, [&ended] { ended = true; });
  sampler->generate();
  waitFor([&ended] { return ended; }, 60'000);
  return &window;
}

}  // namespace mrnn::app
