#include "widgets/training/runs_panel.h"
#include "widgets/native_path.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

#include "engine/analysis/analysis_job.h"
#include "engine/io/atomic_file.h"
#include "engine/io/output_file.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/imported_run.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/training/run_test_evaluation.h"
#include "widgets/display_format.h"
#include "widgets/elided_label.h"
#include "widgets/project/open_project_files.h"
#include "widgets/project/project_document.h"
#include "widgets/tool_bar_rows.h"
#include "widgets/training/background_job.h"
#include "widgets/training/config_diff_dialog.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_table_model.h"
#include "widgets/training/training_controller.h"

namespace mrnn::widgets {
namespace {

constexpr int kTablePage = 0;
constexpr int kEmptyPage = 1;

// How long the window waits for another program's lock on the run database before it says
// so: the researcher tries again, rather than watching a frozen window for the store's 5 s.
constexpr int kHeldDatabaseWaitMs = 250;

QString heldDatabaseWords() {
  return QObject::tr(
      "another program holds the run database locked (a database browser with "
      "unsaved changes?); try again when it is free");
}

// The project's runs, opened to change them, waiting only briefly for a held database.
engine::RunCatalogue writableCatalogue(const QString& folder) {
  engine::RunCatalogue catalogue(toNativePath(folder), engine::RunCatalogue::Access::ReadWrite);
  catalogue.store().setBusyWait(kHeldDatabaseWaitMs);
  return catalogue;
}

}  // namespace

RunsPanel::RunsPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("runsPanel"));
  model_ = new RunsTableModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(RunsTableModel::SortRole);
  proxy_->setFilterKeyColumn(-1);  // any column
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setDynamicSortFilter(true);

  view_ = new QTableView(this);
  view_->setObjectName(QStringLiteral("runsTable"));
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(RunsTableModel::Id, Qt::DescendingOrder);  // newest first
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  // The name and the note are edited in place (double-click or F2); the other columns are
  // the store's record.
  view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  view_->setAlternatingRowColors(true);
  view_->setWordWrap(false);
  // Trial names differ at their end ("lstm-vs-mlstm #3: type=mlstm, seed 2"): a narrow column
  // keeps both ends.
  view_->setTextElideMode(Qt::ElideMiddle);
  view_->verticalHeader()->setVisible(false);
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 8);
  view_->horizontalHeader()->setHighlightSections(false);
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  // The name is the free-form column: it takes the spare width, the numbers keep theirs.
  view_->horizontalHeader()->setSectionResizeMode(RunsTableModel::Name, QHeaderView::Stretch);
  view_->horizontalHeader()->setMinimumSectionSize(36);
  view_->setToolTip(
      tr("Select runs to overlay their curves in the training monitor; "
         "select two to compare their configs"));
  connect(view_, &QTableView::doubleClicked, this, [this] {
    if (selectedRunIds().size() == 2) diffSelected();
  });
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(view_, &QTableView::customContextMenuRequested, this, &RunsPanel::showContextMenu);

  filter_ = new QLineEdit(this);
  filter_->setObjectName(QStringLiteral("runsFilter"));
  filter_->setPlaceholderText(tr("Filter runs: name, model, optimizer, status…"));
  filter_->setClearButtonEnabled(true);
  filter_->setToolTip(tr("Show only runs with this text in any column (Ctrl+F)"));
  filter_->setMinimumWidth(220);
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  connect(filter_, &QLineEdit::textChanged, this, &RunsPanel::updateFooter);
  connect(model_, &RunsTableModel::editRequested, this, &RunsPanel::nameRun);
  auto* findAction = new QAction(this);
  findAction->setShortcut(QKeySequence::Find);
  findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(findAction, &QAction::triggered, this, [this] {
    filter_->setFocus();
    filter_->selectAll();
  });
  addAction(findAction);

  buildActions();
  // Two bars that wrap into two rows where the panel is narrow, so no action hides behind
  // an overflow button: the table's own actions, then models in and out of PyTorch.
  auto* bars = new ToolBarRows(this);
  QToolBar* bar = bars->addBar(QStringLiteral("runsToolBar"));
  bar->addWidget(filter_);
  bar->addSeparator();
  for (QAction* action : {refresh_, diff_, resume_, evaluate_, delete_, export_}) {
    bar->addAction(action);
  }
  QToolBar* models = bars->addBar(QStringLiteral("runsModelBar"));
  models->addAction(importModel_);
  models->addAction(exportModel_);

  emptyLabel_ = new QLabel(this);
  emptyLabel_->setObjectName(QStringLiteral("runsEmptyLabel"));
  emptyLabel_->setAlignment(Qt::AlignCenter);
  emptyLabel_->setWordWrap(true);
  QPalette palette = emptyLabel_->palette();
  palette.setColor(QPalette::WindowText, QColor(0x80, 0x80, 0x80));
  emptyLabel_->setPalette(palette);
  stack_ = new QStackedWidget(this);
  stack_->addWidget(view_);
  stack_->addWidget(emptyLabel_);

  banner_ = new RunBanner(this);
  // A long message (an evaluation's failure names two paths) is cut to the room there is,
  // whole in its tooltip, rather than widening the panel past its window.
  footer_ = new ElidedLabel(this);
  footer_->setObjectName(QStringLiteral("runsFooter"));
  footer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  progress_ = new QProgressBar(this);
  progress_->setObjectName(QStringLiteral("evaluationProgress"));
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(200);
  progress_->setVisible(false);
  cancel_ = new QToolButton(this);
  cancel_->setObjectName(QStringLiteral("cancelEvaluationButton"));
  cancel_->setText(tr("Cancel"));
  cancel_->setToolTip(tr("Stop the evaluation"));
  cancel_->setVisible(false);
  connect(cancel_, &QToolButton::clicked, this, &RunsPanel::cancelEvaluation);

  auto* footer = new QHBoxLayout;
  footer->addWidget(footer_, 1);
  footer->addWidget(progress_);
  footer->addWidget(cancel_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->setSpacing(6);
  layout->addWidget(bars);
  layout->addWidget(banner_);
  layout->addWidget(stack_, 1);
  layout->addLayout(footer);

  refreshTimer_ = new QTimer(this);
  refreshTimer_->setSingleShot(true);
  refreshTimer_->setInterval(kRefreshCoalesceMs);
  connect(refreshTimer_, &QTimer::timeout, this, &RunsPanel::refresh);
  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &RunsPanel::onSelectionChanged);
  connect(&document_, &ProjectDocument::pathChanged, this, [this] {
    banner_->hide();  // what it said was of the last project's runs
    bannerRun_ = 0;
    offeredUnrecorded_.clear();
    offeredDamaged_ = false;
    refresh();
  });
  refresh();
  // Sensible first widths; the user's later changes stay.
  const QList<QPair<int, int>> widths = {
      {RunsTableModel::Id, 44},        {RunsTableModel::Started, 118},
      {RunsTableModel::Model, 96},     {RunsTableModel::Parameters, 84},
      {RunsTableModel::Optimizer, 78}, {RunsTableModel::LearningRate, 58},
      {RunsTableModel::Batch, 50},     {RunsTableModel::Bptt, 48},
      {RunsTableModel::Hidden, 62},    {RunsTableModel::BestValid, 74},
      {RunsTableModel::Test, 62},      {RunsTableModel::Steps, 60},
      {RunsTableModel::Duration, 66},  {RunsTableModel::Note, 180}};
  // Never narrower than the header's own text ("Best valid, bits/sym" read whole).
  for (const auto& [column, width] : widths) {
    view_->setColumnWidth(column,
                          std::max(width, view_->horizontalHeader()->sectionSizeHint(column)));
  }
  // The longest status ("Interrupted") reads whole.
  view_->setColumnWidth(RunsTableModel::Status,
                        view_->fontMetrics().horizontalAdvance(
                            RunsTableModel::statusText(engine::RunStatus::Interrupted)) +
                            24);
}

RunsPanel::~RunsPanel() = default;

void RunsPanel::buildActions() {
  const auto make = [this](QStyle::StandardPixmap icon, const QString& text, const QString& tip,
                           const QString& name, const QKeySequence& key = QKeySequence()) {
    auto* action = new QAction(style()->standardIcon(icon), text, this);
    action->setObjectName(name);
    action->setToolTip(
        key.isEmpty() ? tip
                      : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    action->setStatusTip(tip);
    if (!key.isEmpty()) {
      action->setShortcut(key);
      action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
      addAction(action);
    }
    return action;
  };
  refresh_ = make(QStyle::SP_BrowserReload, tr("Refresh"), tr("Read the run database again"),
                  QStringLiteral("refreshRunsAction"), QKeySequence(Qt::CTRL | Qt::Key_R));
  diff_ = make(QStyle::SP_FileDialogContentsView, tr("Diff configs"),
               tr("Compare the configs of the two selected runs line by line"),
               QStringLiteral("diffConfigsAction"), QKeySequence(Qt::CTRL | Qt::Key_D));
  resume_ = make(QStyle::SP_MediaPlay, tr("Resume"),
                 tr("Continue the selected run from its latest checkpoint"),
                 QStringLiteral("resumeRunAction"));
  evaluate_ = make(QStyle::SP_DialogApplyButton, tr("Evaluate"),
                   tr("Score the selected run's best checkpoint on the test split"),
                   QStringLiteral("evaluateRunAction"), QKeySequence(Qt::CTRL | Qt::Key_E));
  delete_ = make(QStyle::SP_TrashIcon, tr("Delete…"),
                 tr("Delete the selected runs with their metrics and checkpoint files"),
                 QStringLiteral("deleteRunsAction"), QKeySequence(QKeySequence::Delete));
  export_ = make(QStyle::SP_DialogSaveButton, tr("Export CSV…"),
                 tr("Write the runs table, as `mrnn runs export` does, to a CSV file"),
                 QStringLiteral("exportRunsAction"));
  connect(refresh_, &QAction::triggered, this, &RunsPanel::refresh);
  connect(diff_, &QAction::triggered, this, &RunsPanel::diffSelected);
  connect(resume_, &QAction::triggered, this, &RunsPanel::resumeSelected);
  connect(evaluate_, &QAction::triggered, this, &RunsPanel::evaluateSelected);
  connect(delete_, &QAction::triggered, this, &RunsPanel::deleteSelected);
  connect(export_, &QAction::triggered, this, &RunsPanel::exportCsv);
  // Their tooltips say why they are off, or what they would write (updateActions).
  importModel_ = make(QStyle::SP_DialogOpenButton, tr("Import PyTorch Model…"),
                      tr("Add a language model trained in PyTorch (a state dict or safetensors "
                         "file) to the project as a run"),
                      QStringLiteral("importModelAction"));
  exportModel_ = make(QStyle::SP_ArrowUp, tr("Export Model…"),
                      tr("Write the selected run's model as a PyTorch state dict or a "
                         "safetensors file"),
                      QStringLiteral("exportModelAction"));
  connect(importModel_, &QAction::triggered, this, &RunsPanel::importModel);
  connect(exportModel_, &QAction::triggered, this, &RunsPanel::exportModelSelected);
}

void RunsPanel::showContextMenu(const QPoint& at) {
  QMenu menu(this);
  menu.addActions({resume_, evaluate_, diff_});
  menu.addSeparator();
  menu.addActions({exportModel_, importModel_});
  menu.addSeparator();
  menu.addAction(delete_);
  menu.exec(view_->viewport()->mapToGlobal(at));
}

void RunsPanel::attachController(TrainingController* controller) {
  connect(controller, &TrainingController::stepReceived, this, &RunsPanel::refreshSoon);
  connect(controller, &TrainingController::validationReceived, this, &RunsPanel::refreshSoon);
  connect(controller, &TrainingController::checkpointSaved, this, &RunsPanel::refreshSoon);
  connect(controller, &TrainingController::started, this, &RunsPanel::refreshSoon);
  connect(controller, &TrainingController::finished, this, &RunsPanel::refresh);
  connect(controller, &TrainingController::failed, this, &RunsPanel::refresh);
  connect(controller, &TrainingController::stateChanged, this,
          [this, controller] { setTrainingActive(controller->isRunning()); });
  setTrainingActive(controller->isRunning());
}

void RunsPanel::setTrainingActive(bool active) {
  trainingActive_ = active;
  updateActions();
}

QString RunsPanel::databasePath() const {
  if (document_.isUntitled()) return QString();
  return fromNativePath(engine::RunPaths::database(toNativePath(document_.folder())));
}

QString RunsPanel::runTitle(qint64 runId) const {
  const int row = model_->rowOfRun(runId);
  if (row < 0) return tr("run %1").arg(runId);
  return tr("run %1 · %2").arg(runId).arg(QString::fromStdString(model_->run(row).name));
}

void RunsPanel::refreshSoon() {
  if (!refreshTimer_->isActive()) refreshTimer_->start();
}

void RunsPanel::refresh() {
  refreshTimer_->stop();
  const QString database = databasePath();
  const QList<qint64> selected = selectedRunIds();
  std::vector<engine::RunRecord> runs;
  exportable_.clear();
  QString problem;
  QList<qint64> unrecorded;
  bool damaged = false;
  if (database.isEmpty()) {
    problem =
        tr("This project is not saved yet.\nSave it, then train it (F5 in the training "
           "monitor): its runs are listed here.");
  } else if (!QFileInfo::exists(database)) {
    // Never create a database just to report that there is none.
    problem = tr("No runs yet in %1.\nTrain the project (F5 in the training monitor) and its "
                 "runs are listed here.")
                  .arg(QDir::toNativeSeparators(document_.folder()));
    unrecorded = unrecordedRunIds(document_.folder(), runs);
  } else {
    try {
      // Read-only, with live statuses: a run whose process died reads "interrupted".
      const engine::RunCatalogue catalogue(toNativePath(document_.folder()));
      runs = catalogue.runs();
      if (runs.empty()) problem = tr("No runs yet: train the project (F5) to add one.");
      // Best before latest, as checkpointToAnalyse picks: the first of a run is its export.
      for (const engine::RunCheckpoint& checkpoint : catalogue.allCheckpoints()) {
        if (!exportable_.contains(checkpoint.runId)) {
          exportable_.insert(checkpoint.runId, QString::fromStdString(checkpoint.kind));
        }
      }
      unrecorded = unrecordedRunIds(document_.folder(), runs);
    } catch (const engine::StoreDamagedError&) {
      damaged = true;
      problem = tr("The run database, %1, is damaged or is not a run database, and cannot be "
                   "read. The workbench leaves it as it is: the banner above sets it aside and "
                   "records the runs again from their checkpoints.")
                    .arg(QDir::toNativeSeparators(database));
    } catch (const std::exception& error) {
      problem = tr("The run database could not be read:\n%1").arg(QString::fromUtf8(error.what()));
    }
  }
  if (runs.empty() && !unrecorded.isEmpty()) {
    problem = tr("The run database of %1 records no run, but runs' checkpoints are in the "
                 "project: the banner above records them again.")
                  .arg(QDir::toNativeSeparators(document_.folder()));
  }
  model_->setRuns(runs);
  selectRuns(selected);
  stack_->setCurrentIndex(runs.empty() ? kEmptyPage : kTablePage);
  emptyLabel_->setText(problem);
  finished_ = 0;
  for (const auto& run : runs) finished_ += run.status == engine::RunStatus::Finished ? 1 : 0;
  updateFooter();
  updateActions();
  offerRecovery(unrecorded, damaged);
}

void RunsPanel::nameRun(qint64 runId, int column, const QString& text) {
  try {
    engine::RunCatalogue catalogue = writableCatalogue(document_.folder());
    if (column == RunsTableModel::Name) {
      catalogue.store().renameRun(runId, text.toStdString());
      if (runId == bannerRun_) banner_->hide();  // it named the run by its old name
      emit statusMessage(tr("Run %1 is now named %2").arg(runId).arg(text));
    } else {
      catalogue.store().setNote(runId, text.toStdString());
      emit statusMessage(text.isEmpty() ? tr("Run %1 has no note now").arg(runId)
                                        : tr("Noted run %1").arg(runId));
    }
  } catch (const engine::StoreBusyError&) {
    emit statusMessage((column == RunsTableModel::Name ? tr("Run %1 keeps its name: %2")
                                                       : tr("Run %1 keeps its note: %2"))
                           .arg(runId)
                           .arg(heldDatabaseWords()));
  } catch (const std::exception& error) {
    emit statusMessage(
        tr("Could not change run %1: %2").arg(runId).arg(QString::fromUtf8(error.what())));
  }
  refresh();
}

void RunsPanel::updateFooter() {
  // The footer says how the evaluation or the export goes.
  if (isEvaluating() || isExportingModel()) return;
  const int total = model_->rowCount();
  const int shown = proxy_->rowCount();
  QString text =
      total == 0 ? QString() : tr("%n run(s)", "", total) + tr(", %1 finished").arg(finished_);
  if (shown != total) text += tr("; %1 shown by the filter").arg(shown);
  footer_->setFullText(text);
}

QList<qint64> RunsPanel::selectedRunIds() const {
  QList<QPair<int, qint64>> rows;
  for (const QModelIndex& index : view_->selectionModel()->selectedRows()) {
    rows.append({index.row(), index.data(RunsTableModel::RunIdRole).toLongLong()});
  }
  std::sort(rows.begin(), rows.end());
  QList<qint64> ids;
  for (const auto& row : rows) ids.append(row.second);
  return ids;
}

void RunsPanel::selectRuns(const QList<qint64>& runIds) {
  QItemSelection selection;
  for (qint64 id : runIds) {
    const int row = model_->rowOfRun(id);
    if (row < 0) continue;
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    if (index.isValid()) selection.select(index, index);
  }
  view_->selectionModel()->select(selection,
                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void RunsPanel::onSelectionChanged() {
  updateActions();
  const QList<qint64> ids = selectedRunIds();
  if (ids == lastOverlay_) return;
  lastOverlay_ = ids;
  emit overlayRunsChanged(ids);
}

void RunsPanel::updateActions() {
  const QList<qint64> ids = selectedRunIds();
  const bool database = !databasePath().isEmpty() && model_->rowCount() > 0;
  diff_->setEnabled(ids.size() == 2);
  // An imported run has weights but no training state: resuming it can only fail.
  const int selectedRow = ids.size() == 1 ? model_->rowOfRun(ids.first()) : -1;
  const bool imported = selectedRow >= 0 && engine::isImportedRun(model_->run(selectedRow));
  resume_->setEnabled(ids.size() == 1 && !trainingActive_ && !imported && !resumeCheck_);
  resume_->setToolTip(imported ? tr("Run %1 was imported: it has weights but no training state "
                                    "(optimiser, data position) to resume from. Train a new run "
                                    "to train further.")
                                     .arg(ids.first())
                               : resume_->statusTip());
  evaluate_->setEnabled(ids.size() == 1 && !isEvaluating());
  delete_->setEnabled(!ids.isEmpty() && !isEvaluating());
  export_->setEnabled(database);
  importModel_->setEnabled(!document_.isUntitled());
  importModel_->setToolTip(
      document_.isUntitled()
          ? tr("Save the project first: an imported model becomes one of its runs")
          : importModel_->statusTip());
  updateExportModelAction(ids);
}

void RunsPanel::showMessage(const QString& message) {
  footer_->setFullText(message);
  emit statusMessage(message);
}

void RunsPanel::diffSelected() {
  const QList<qint64> ids = selectedRunIds();
  if (ids.size() != 2) return;
  // Older run on the left, so the diff reads as "what changed since".
  const qint64 left = std::min(ids[0], ids[1]);
  const qint64 right = std::max(ids[0], ids[1]);
  const auto& leftRun = model_->run(model_->rowOfRun(left));
  const auto& rightRun = model_->run(model_->rowOfRun(right));
  auto* dialog =
      new ConfigDiffDialog(runTitle(left), QString::fromStdString(leftRun.configYaml),
                           runTitle(right), QString::fromStdString(rightRun.configYaml), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

bool RunsPanel::isEvaluating() const {
  return evaluation_ != nullptr;
}

QString RunsPanel::trialsNote(const QList<qint64>& ids) const {
  QString note;
  try {
    const engine::ExperimentLedger ledger(toNativePath(document_.folder()),
                                          engine::ExperimentLedger::Access::ReadOnly);
    for (const qint64 id : ids) {
      for (const engine::TrialRecord& trial : ledger.trialsOfRun(id)) {
        note +=
            tr("Run %1 is trial #%2 (%3) of experiment '%4': its result leaves the "
               "experiment, which trains the trial again the next time it runs.\n\n")
                .arg(id)
                .arg(trial.trial + 1)
                .arg(QString::fromStdString(trial.label), QString::fromStdString(trial.experiment));
      }
    }
  } catch (const std::exception&) {
    // No experiment table to read: no run is a trial.
  }
  return note;
}

void RunsPanel::deleteSelected() {
  const QList<qint64> ids = selectedRunIds();
  if (ids.isEmpty() || isEvaluating()) return;
  QStringList busy;
  try {
    // Whoever trains it (this window or another process) holds its lock.
    const engine::RunCatalogue catalogue(toNativePath(document_.folder()));
    for (qint64 id : ids) {
      if (const auto writer = catalogue.writer(id)) {
        busy << tr("Run %1 is being trained by %2.")
                    .arg(id)
                    .arg(QString::fromStdString(writer->describe()));
      }
    }
  } catch (const std::exception&) {
  }
  for (qint64 id : ids) {
    const auto status = model_->run(model_->rowOfRun(id)).status;
    if (trainingActive_ &&
        (status == engine::RunStatus::Running || status == engine::RunStatus::Paused) &&
        busy.isEmpty()) {
      busy << tr("Run %1 is training.").arg(id);
    }
  }
  if (!busy.isEmpty()) {
    banner_->showMessage(RunBanner::Kind::Failure, tr("Not deleted"),
                         busy.join(QLatin1Char(' ')) + tr(" Stop it first."));
    return;
  }
  QStringList names;
  for (qint64 id : ids) names << runTitle(id);
  const QString question = ids.size() == 1
                               ? tr("Delete %1?").arg(names.first())
                               : tr("Delete %n runs?", "", static_cast<int>(ids.size())) +
                                     QStringLiteral("\n") + names.join(QLatin1Char('\n'));
  QMessageBox box(QMessageBox::Warning, tr("Delete runs"), question,
                  QMessageBox::Yes | QMessageBox::No, this);
  box.setObjectName(QStringLiteral("deleteRunsConfirmation"));
  box.setInformativeText(trialsNote(ids) +
                         tr("Their metrics leave the database and their checkpoints "
                            "(checkpoints/run-<id>) are removed; files you put in those folders "
                            "stay. This cannot be undone."));
  box.setDefaultButton(QMessageBox::No);
  box.button(QMessageBox::Yes)->setText(tr("Delete"));
  box.button(QMessageBox::No)->setText(tr("Keep"));
  if (box.exec() != QMessageBox::Yes) return;

  QStringList failures;
  QStringList keptFolders;
  QStringList deleted;
  bool held = false;
  try {
    engine::RunCatalogue catalogue = writableCatalogue(document_.folder());
    for (qint64 id : ids) {
      try {
        const std::vector<std::string> kept = catalogue.deleteRun(id);
        deleted << runTitle(id);
        if (kept.empty()) continue;
        QStringList files;
        for (const std::string& name : kept) files << QString::fromStdString(name);
        keptFolders << tr("checkpoints/run-%1 stays with what you put there: %2")
                           .arg(id)
                           .arg(files.join(QStringLiteral(", ")));
      } catch (const engine::StoreBusyError&) {
        held = true;  // the rest would wait in turn
        break;
      } catch (const std::exception& error) {
        failures << QString::fromUtf8(error.what());
      }
    }
  } catch (const std::exception& error) {
    failures << QString::fromUtf8(error.what());
  }
  refresh();
  if (held) {
    banner_->showMessage(RunBanner::Kind::Failure,
                         deleted.isEmpty()
                             ? tr("Nothing was deleted")
                             : tr("Only %1 was deleted").arg(deleted.join(QStringLiteral(", "))),
                         heldDatabaseWords());
    return;
  }
  if (failures.isEmpty() && keptFolders.isEmpty()) {
    showMessage(tr("Deleted %1").arg(names.join(QStringLiteral(", "))));
  } else if (failures.isEmpty()) {
    banner_->showMessage(RunBanner::Kind::Information,
                         tr("Deleted %1; files that are not the workbench's were kept")
                             .arg(names.join(QStringLiteral(", "))),
                         keptFolders.join(QLatin1Char('\n')));
  } else {
    banner_->showMessage(RunBanner::Kind::Failure, tr("Deleting runs went wrong"),
                         failures.join(QLatin1Char('\n')));
  }
}

bool RunsPanel::exportCsvTo(const QString& path) {
  try {
    // What the table shows, hyperparameters included (`mrnn runs export` has the configs).
    engine::writeOutputFile(toNativePath(path), model_->toCsv(), OpenProjectFiles::exportRules());
  } catch (const std::exception& error) {
    banner_->showMessage(RunBanner::Kind::Failure, tr("The runs were not exported"),
                         QString::fromUtf8(error.what()));
    return false;
  }
  showMessage(
      tr("Exported %n run(s) to %1", "", model_->rowCount()).arg(QDir::toNativeSeparators(path)));
  return true;
}

void RunsPanel::exportCsv() {
  if (databasePath().isEmpty() || !QFileInfo::exists(databasePath())) return;
  const QString suggested = QDir(document_.folder()).filePath(QStringLiteral("runs.csv"));
  const QString path = QFileDialog::getSaveFileName(this, tr("Export runs as CSV"), suggested,
                                                    tr("CSV files (*.csv);;All files (*)"));
  if (!path.isEmpty()) exportCsvTo(path);
}

}  // namespace mrnn::widgets
