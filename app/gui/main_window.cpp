#include "app/gui/main_window.h"

#include <cstdio>

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShowEvent>
#include <QSizePolicy>
#include <QStatusBar>
#include <QTimer>

#include "app/gui/project_files.h"
#include "app/gui/workbench_settings.h"
#include "engine/config/parameter_count.h"
#include "engine/store/run_catalogue.h"
#include "widgets/composer/composer_panel.h"
#include "widgets/composer/yaml_view.h"
#include "widgets/data/data_panel.h"
#include "widgets/experiments/experiments_panel.h"
#include "widgets/gates/gate_inspector_panel.h"
#include "widgets/masking/masking_panel.h"
#include "widgets/masking/size_validation_panel.h"
#include "widgets/model_summary_panel.h"
#include "widgets/native_path.h"
#include "widgets/panel_holder.h"
#include "widgets/project/project_document.h"
#include "widgets/sampler/sampler_console.h"
#include "widgets/surprisal/surprisal_panel.h"
#include "widgets/training/run_store_watcher.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/training_controller.h"
#include "widgets/training/training_monitor_panel.h"
#include "widgets/tree/hidden_state_tree_panel.h"

namespace mrnn::app {
namespace {

const QString kAppTitle = QStringLiteral("mRNN Workbench");
const char* const kGeometryKey = "mainWindow/geometry";
const char* const kStateKey = "mainWindow/state";
const char* const kTrainingViewGroup = "trainingView";
const char* const kProcessesKey = "training/processes";

}  // namespace

MainWindow::MainWindow(bool useSettings, QWidget* parent)
    : QMainWindow(parent),
      useSettings_(useSettings),
      catalog_(TemplateCatalog::standard()),
      document_(new widgets::ProjectDocument(this)) {
  setWindowTitle(kAppTitle);
  setDockOptions(QMainWindow::AllowTabbedDocks | QMainWindow::AnimatedDocks |
                 QMainWindow::AllowNestedDocks);
  files_ = new ProjectFiles(*document_, catalog_, this, useSettings_);

  // The project's line (its file, its parameters) is a label of its own, not a message, so
  // that menu status tips cannot erase it; it is a normal widget (not a permanent one, which
  // would leave a message no room), so a message takes its place for a while, then it returns.
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("projectStatus"));
  status_->setContentsMargins(6, 0, 6, 0);
  // Long paths and error messages must not set the window's minimum width.
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  statusBar()->addWidget(status_, 1);

  createPanels();
  files_->setDraftCheck([this] {
    const QString yaml = yaml_->unappliedDraft();
    QStringList unapplied;
    if (!yaml.isEmpty()) unapplied << tr("The YAML view: %1").arg(yaml);
    const QString experiment = experiments_->unappliedEdits();
    if (!experiment.isEmpty()) unapplied << experiment;
    return unapplied.join(QStringLiteral("\n"));
  });
  files_->keepDrafts([this] { return yaml_->failedDraft(); },
                     [this](const QString& text) { yaml_->restoreDraft(text); },
                     [this] { yaml_->revert(); });
  connect(yaml_, &widgets::YamlView::draftChanged, files_, &ProjectFiles::draftChanged);
  defaultLayout_ = saveState();
  createMenus();
  connectPanels();
  // 1280 x 820, or the screen's free area where that is smaller (a 1366 x 768 laptop, a
  // 1280 x 720 display): a window taller than the screen hides its status bar and Start.
  QSize size(1280, 820);
  if (const QScreen* display = screen()) size = size.boundedTo(display->availableGeometry().size());
  resize(size);
  if (useSettings_) {
    QSettings settings = workbenchSettings();
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoredLayout_ = restoreState(settings.value(kStateKey).toByteArray());
    settings.beginGroup(kTrainingViewGroup);
    QVariantMap view;
    for (const QString& key : settings.childKeys()) view.insert(key, settings.value(key));
    settings.endGroup();
    monitor_->restoreViewSettings(view);
  }
  updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createPanels() {
  composer_ = new widgets::ComposerPanel(*document_, this);
  composer_->setObjectName(QStringLiteral("composer"));
  composer_->setWindowTitle(tr("Composer"));  // how the list of keys names its actions
  // Match parameters offers the project's runs' counts.
  composer_->setRunReferenceSource([this] {
    QList<widgets::ParameterReference> runs;
    try {
      const std::string folder = widgets::toNativePath(document_->folder());
      if (document_->isUntitled() || !engine::RunCatalogue::exists(folder)) return runs;
      for (const engine::RunRecord& run : engine::RunCatalogue(folder).runs()) {
        if (run.parameters <= 0) continue;
        runs.prepend(
            {tr("Run %1 · %2 · %3 params")
                 .arg(run.id)
                 .arg(QString::fromStdString(run.modelType))
                 .arg(QLocale(QLocale::English).toString(static_cast<qlonglong>(run.parameters))),
             run.parameters});
      }
    } catch (const std::exception&) {
      // An unreadable store offers no runs; the Runs panel says why.
    }
    return runs;
  });
  setCentralWidget(composer_);

  summary_ = new widgets::ModelSummaryPanel(this);
  yaml_ = new widgets::YamlView(*document_, this);
  data_ = new widgets::DataPanel(*document_, this);
  monitor_ = new widgets::TrainingMonitorPanel(*document_, this);
  runs_ = new widgets::RunsPanel(*document_, this);
  experiments_ = new widgets::ExperimentsPanel(*document_, this);
  sampler_ = new widgets::SamplerConsole(*document_, this);

  addPanel(QStringLiteral("yaml"), tr("YAML"), yaml_, Qt::RightDockWidgetArea);
  auto* summaryDock =
      addPanel(QStringLiteral("summary"), tr("Model Summary"), summary_, Qt::RightDockWidgetArea);
  tabifyDockWidget(docks_[QStringLiteral("yaml")], summaryDock);

  auto* training =
      addPanel(QStringLiteral("training"), tr("Training"), monitor_, Qt::BottomDockWidgetArea);
  for (const auto& [name, title, panel] :
       {std::tuple<QString, QString, QWidget*>{QStringLiteral("runs"), tr("Runs"), runs_},
        {QStringLiteral("experiments"), tr("Experiments"), experiments_},
        {QStringLiteral("sampler"), tr("Sampler"), sampler_},
        {QStringLiteral("data"), tr("Data"), data_}}) {
    tabifyDockWidget(training, addPanel(name, title, panel, Qt::BottomDockWidgetArea));
  }
  createAnalysisPanels(training);
  training->raise();
  docks_[QStringLiteral("yaml")]->raise();
}

void MainWindow::createAnalysisPanels(QDockWidget* tabbedWith) {
  gates_ = new widgets::GateInspectorPanel(*document_, this);
  tree_ = new widgets::HiddenStateTreePanel(*document_, this);
  surprisal_ = new widgets::SurprisalPanel(*document_, this);
  masking_ = new widgets::MaskingPanel(*document_, this);
  sizes_ = new widgets::SizeValidationPanel(*document_, this);
  for (const auto& [name, title, panel] :
       {std::tuple<QString, QString, QWidget*>{QStringLiteral("gates"), tr("Gates"), gates_},
        {QStringLiteral("tree"), tr("State Tree"), tree_},
        {QStringLiteral("surprisal"), tr("Surprisal"), surprisal_},
        {QStringLiteral("masking"), tr("Masking"), masking_},
        {QStringLiteral("sizes"), tr("Size vs Validation"), sizes_}}) {
    tabifyDockWidget(tabbedWith, addPanel(name, title, panel, Qt::BottomDockWidgetArea));
  }
}

void MainWindow::refreshRunViews() {
  runs_->refresh();
  experiments_->refreshStatus();
  sampler_->refreshCheckpoints();
  gates_->refreshCheckpoints();
  tree_->refreshCheckpoints();
  surprisal_->refreshCheckpoints();
  masking_->refreshCheckpoints();
  sizes_->refresh();
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  // A message given before the window showed (the project opened at launch) did not hide the
  // project's line, which was not visible then: given again (QStatusBar ignores the same text
  // twice, hence the clearing), it does.
  if (const QString message = statusBar()->currentMessage(); !message.isEmpty()) {
    statusBar()->clearMessage();
    showStatus(message);
  }
  if (layoutApplied_) return;
  layoutApplied_ = true;
  // The first layout (a saved one replaces it): the composer keeps the larger share.
  if (restoredLayout_) return;
  // After the first layout pass, when the docks have their real sizes.
  QTimer::singleShot(0, this, [this] { applyDefaultProportions(); });
}

void MainWindow::applyDefaultProportions() {
  // On a short screen (a 720-pixel laptop) the panels below get more of the height: their
  // plots need it more than the composer's canvas, which scrolls.
  const double share = height() < 860 ? 0.58 : 0.5;
  resizeDocks({docks_[QStringLiteral("training")]}, {static_cast<int>(height() * share)},
              Qt::Vertical);
  resizeDocks({docks_[QStringLiteral("yaml")]}, {width() / 5}, Qt::Horizontal);
}

void MainWindow::resetLayout() {
  beforeFocus_.clear();
  centralWidget()->show();
  restoreState(defaultLayout_);
  for (QDockWidget* dock : docks_) dock->show();
  docks_[QStringLiteral("training")]->raise();
  docks_[QStringLiteral("yaml")]->raise();
  QTimer::singleShot(0, this, [this] { applyDefaultProportions(); });
}

void MainWindow::toggleFocus() {
  focusOn(true);
}

void MainWindow::toggleComposerFocus() {
  focusOn(false);
}

void MainWindow::focusOn(bool panelsBelow) {
  if (isFocused()) {  // either focus: back to the layout before it
    centralWidget()->show();
    restoreState(beforeFocus_);
    beforeFocus_.clear();
    return;
  }
  beforeFocus_ = saveState();
  // The focused side keeps its tabs (one panel shows, the others a click away); the rest,
  // and any floating panel, is put away.
  centralWidget()->setVisible(!panelsBelow);
  for (QDockWidget* dock : docks_) {
    const bool below = !dock->isFloating() && dockWidgetArea(dock) == Qt::BottomDockWidgetArea;
    if (dock->isFloating() || below != panelsBelow) dock->hide();
  }
}

QDockWidget* MainWindow::addPanel(const QString& name, const QString& title, QWidget* panel,
                                  Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(name);  // saveState() keys the layout by it
  // In a scroll area, so that a tall panel (the data form) does not set the height of every
  // dock tabbed with it: docks shrink freely and scroll when smaller than their panel's least
  // size (PanelHolder).
  auto* scroll = new QScrollArea(dock);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(new widgets::PanelHolder(panel));
  dock->setWidget(scroll);
  addDockWidget(area, dock);
  docks_.insert(name, dock);
  return dock;
}

void MainWindow::connectPanels() {
  // Runs written by other processes (`mrnn train` in a terminal) appear and plot as they train.
  auto* watcher = new widgets::RunStoreWatcher(*document_, this);
  connect(watcher, &widgets::RunStoreWatcher::runsChanged, monitor_,
          &widgets::TrainingMonitorPanel::followStore);
  connect(watcher, &widgets::RunStoreWatcher::runsChanged, runs_, &widgets::RunsPanel::refreshSoon);
  // Every checkpoint chooser and the size plot follow the store: a run deleted leaves them, a
  // new or better-validated checkpoint joins them, whoever wrote it.
  connect(watcher, &widgets::RunStoreWatcher::checkpointsChanged, this,
          &MainWindow::refreshRunViews);
  connect(document_, &widgets::ProjectDocument::projectChanged, this, &MainWindow::projectChanged);
  connect(document_, &widgets::ProjectDocument::vocabularyChanged, this,
          &MainWindow::projectChanged);
  connect(document_, &widgets::ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
  connect(data_, &widgets::DataPanel::scanFinished, this, [this] {
    const auto& scan = data_->lastScan();
    composer_->setDataProblem(scan.ok ? QString() : scan.error);
    updateTitle();
  });
  connect(document_, &widgets::ProjectDocument::pathChanged, this, [this] {
    updateTitle();
    refreshRunViews();
  });
  connect(files_, &ProjectFiles::statusMessage, this, &MainWindow::showStatus);

  // Training may start only with a valid model.
  connect(
      composer_, &widgets::ComposerPanel::validityChanged, monitor_,
      [this](bool valid, const QString& problems) { monitor_->setStartEnabled(valid, problems); });
  monitor_->setStartEnabled(composer_->isModelValid(), composer_->problemSummary());
  connect(monitor_->controller(), &widgets::TrainingController::stateChanged, composer_,
          [this](widgets::TrainingController::State state) {
            composer_->setTrainingActive(state != widgets::TrainingController::State::Idle);
          });
  connect(monitor_, &widgets::TrainingMonitorPanel::saveRequested, files_, &ProjectFiles::save);
  // How many processes train is the researcher's choice for this machine (its cores and
  // GPUs), kept in the settings rather than in the project, which travels to other machines.
  if (useSettings_) {
    monitor_->setProcessCount(workbenchSettings().value(kProcessesKey, 1).toInt());
    connect(monitor_, &widgets::TrainingMonitorPanel::processCountChanged, this,
            [](int processes) { workbenchSettings().setValue(kProcessesKey, processes); });
  }
  connect(monitor_, &widgets::TrainingMonitorPanel::statusMessage, this, &MainWindow::showStatus);
  connect(monitor_, &widgets::TrainingMonitorPanel::runEnded, this,
          [this](bool ok, const QString& summary) {
            refreshRunViews();
            showStatus(summary);
            if (!ok) docks_[QStringLiteral("training")]->raise();
          });
  runs_->attachController(monitor_->controller());
  connect(runs_, &widgets::RunsPanel::statusMessage, this, &MainWindow::showStatus);
  // An imported model is a run the sampler and the analyses can open at once; the table shows
  // it selected.
  connect(runs_, &widgets::RunsPanel::runImported, this, [this] {
    refreshRunViews();
    raisePanel(QStringLiteral("runs"));
  });
  connect(runs_, &widgets::RunsPanel::overlayRunsChanged, monitor_,
          &widgets::TrainingMonitorPanel::setOverlayRuns);
  // An experiment's trials are runs: "Show in monitor" overlays them like selected runs, a
  // configuration's seeds as one mean with its band, as the results table counts them.
  connect(experiments_, &widgets::ExperimentsPanel::showRunsRequested, this,
          [this](const QList<qint64>& runIds) {
            if (runIds.isEmpty()) return;
            monitor_->setGroupSeeds(true);
            monitor_->setOverlayRuns(runIds);
            docks_[QStringLiteral("training")]->raise();
          });
  connect(experiments_, &widgets::ExperimentsPanel::statusMessage, this, &MainWindow::showStatus);
  connect(runs_, &widgets::RunsPanel::resumeRequested, this,
          [this](qint64 runId, const QString& checkpoint) {
            docks_[QStringLiteral("training")]->raise();
            monitor_->startFromCheckpoint(runId, checkpoint);
          });
}

bool MainWindow::openProject(const QString& path) {
  if (files_->open(path)) return true;
  summary_->showError(files_->lastError());
  return false;
}

void MainWindow::warnProjectNotOpened() {
  files_->warnNotOpened(false);
}

void MainWindow::projectChanged() {
  engine::Project project = document_->project();
  // The summary counts parameters with the vocabulary the data panel found, when the
  // project leaves it to the corpus.
  if (project.model.input.vocabSize == 0)
    project.model.input.vocabSize = document_->vocabularySize();
  summary_->showProject(project);
  updateTitle();
}

void MainWindow::updateTitle() {
  setWindowTitle(document_->displayName() + QStringLiteral("[*] \u2014 ") + kAppTitle);
  setWindowModified(document_->isModified());
  const QString where =
      document_->isUntitled() ? tr("not saved yet") : QDir::toNativeSeparators(document_->path());
  const qint64 total = summary_->totalParameters();
  const QString count =
      total > 0 ? tr("%1 parameters")
                      .arg(QLocale(QLocale::English, QLocale::UnitedStates).toString(total))
      : !data_->lastScan().ok && !data_->lastScan().error.isEmpty()
          ? tr("the corpus could not be read: the Data panel says why")
          : tr("parameter count needs the vocabulary size (open the Data panel)");
  status_->setText(where + QStringLiteral("  \u2014  ") + count);
  status_->setToolTip(status_->text());
}

void MainWindow::showStatus(const QString& text) {
  statusBar()->showMessage(text, 8000);
}

QString MainWindow::statusText() const {
  const QString message = statusBar()->currentMessage();
  return message.isEmpty() ? status_->text() : message + QStringLiteral("  |  ") + status_->text();
}

bool MainWindow::raisePanel(const QString& name) {
  QDockWidget* dock = docks_.value(name);
  if (dock == nullptr) return false;
  dock->show();
  dock->raise();
  return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  widgets::TrainingController* training = monitor_->controller();
  if (training->isRunning()) {
    if (quitting_) {  // asked already: still waiting for the run's checkpoint
      event->ignore();
      return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Training in Progress"),
        tr("A run is training. Stop it (a checkpoint is kept, so it can be resumed) and quit?"),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes || !files_->maybeSave()) {
      event->ignore();
      return;
    }
    stopTrainingThenClose();
    event->ignore();
    return;
  }
  if (!quitting_ && !files_->maybeSave()) {
    event->ignore();
    return;
  }
  if (useSettings_) {
    QSettings settings = workbenchSettings();
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, layoutToSave());
    // One readable key each (trainingView/logScale=true), not one opaque blob.
    settings.beginGroup(kTrainingViewGroup);
    const QVariantMap view = monitor_->viewSettings();
    for (auto it = view.cbegin(); it != view.cend(); ++it) settings.setValue(it.key(), it.value());
    settings.endGroup();
  }
  QMainWindow::closeEvent(event);
}

void MainWindow::stopTrainingThenClose() {
  // The run ends its step (or the validation it is in) and saves a checkpoint first, which
  // can take seconds: the window says so and closes when the run has ended.
  quitting_ = true;
  monitor_->stop();
  showStatus(
      tr("Quitting once the run has saved its checkpoint; a validation in progress "
         "is finished first"));
  connect(monitor_->controller(), &widgets::TrainingController::stateChanged, this,
          [this](widgets::TrainingController::State state) {
            if (quitting_ && state == widgets::TrainingController::State::Idle) {
              QTimer::singleShot(0, this, &QWidget::close);
            }
          });
}

void MainWindow::quitOnSignal(const QString& name) {
  if (quitting_) return;  // already on its way out
  const bool running = monitor_->controller()->isRunning();
  // A draft in the YAML view that reads is applied, and so kept with the other edits.
  const QString draft = yaml_->unappliedDraft();
  QString edits;
  if (document_->isModified() || !draft.isEmpty()) {
    QString problem;
    if (!files_->keepUnsavedEdits(&problem)) {
      edits = tr("; the project's unsaved edits are not saved (%1)").arg(problem);
    } else if (document_->isUntitled()) {
      edits = tr("; the new project's edits are kept, and offered at the next start");
    } else {
      edits =
          tr("; the project's unsaved edits are kept, and offered back when it is opened "
             "again");
    }
    if (!draft.isEmpty()) {
      edits += tr(" (the YAML view's text, which does not read as a project yet: %1)").arg(draft);
    }
  }
  std::fprintf(
      stderr, "mrnn-workbench: %s: %s%s\n", qPrintable(name),
      running ? "stopping the training run (its checkpoint is kept), then quitting" : "quitting",
      qPrintable(edits));
  quitting_ = true;  // no question: the edits are kept, not saved, and the window closes
  if (running) {
    stopTrainingThenClose();
  } else {
    close();
  }
}

void MainWindow::keepUnsavedEditsIn(const QString& folder) {
  files_->keepUnsavedEditsIn(folder);
}

QByteArray MainWindow::layoutToSave() const {
  return isFocused() ? beforeFocus_ : saveState();
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  if (event->oldSize().width() <= 0 || event->size().width() <= event->oldSize().width()) return;
  // Grown: once laid out, a side dock squeezed below a tenth of the width takes its default
  // fifth again.
  QTimer::singleShot(0, this, [this] {
    for (const QString& name : {QStringLiteral("yaml"), QStringLiteral("summary")}) {
      QDockWidget* side = docks_.value(name);
      if (!side || !side->isVisible() || side->isFloating()) continue;
      if (dockWidgetArea(side) != Qt::RightDockWidgetArea) continue;
      if (side->width() < width() / 10) resizeDocks({side}, {width() / 5}, Qt::Horizontal);
      return;
    }
  });
}

}  // namespace mrnn::app
