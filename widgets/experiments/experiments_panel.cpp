#include "widgets/experiments/experiments_panel.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

#include "engine/config/config_error.h"
#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/experiment/queue_control.h"
#include "engine/io/atomic_file.h"
#include "widgets/display_format.h"
#include "widgets/experiments/axes_editor.h"
#include "widgets/experiments/fixed_settings_editor.h"
#include "widgets/experiments/queue_launcher.h"
#include "widgets/experiments/results_view.h"
#include "widgets/experiments/trials_table.h"
#include "widgets/mrnn_program.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {
namespace {

QToolButton* toolButton(QWidget* parent, const QString& name, const QString& text,
                        QStyle::StandardPixmap icon, const QString& tip) {
  auto* button = new QToolButton(parent);
  button->setObjectName(name);
  button->setText(text);
  button->setIcon(parent->style()->standardIcon(icon));
  button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  button->setToolTip(tip);
  return button;
}

qint64 stampOf(const QString& path) {
  const QFileInfo info(path);
  return info.exists() ? info.lastModified().toMSecsSinceEpoch() * 1000 + info.size() % 1000 : 0;
}

QString plural(qint64 n, const QString& one, const QString& many) {
  return n == 1 ? QStringLiteral("1 ") + one : QStringLiteral("%1 ").arg(n) + many;
}

}  // namespace

ExperimentsPanel::ExperimentsPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document), program_(findMrnnProgram()) {
  chooser_ = new QComboBox(this);
  chooser_->setObjectName(QStringLiteral("experimentChooser"));
  chooser_->setMinimumContentsLength(16);
  chooser_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  chooser_->setToolTip(tr("The project's experiments: the files in its experiments/ folder"));
  new_ = toolButton(this, QStringLiteral("newExperiment"), tr("New\u2026"),
                    QStyle::SP_FileDialogNewFolder,
                    tr("Write a new experiment file (one axis to start from) and open it"));
  launch_ = toolButton(this, QStringLiteral("launchExperiment"), tr("Launch"), QStyle::SP_MediaPlay,
                       tr("Run the experiment's queue (`mrnn experiment run`) in the background; "
                          "it goes on when the workbench closes, and after Stop goes on from "
                          "the trials' checkpoints"));
  pause_ = toolButton(this, QStringLiteral("pauseExperiment"), tr("Pause"), QStyle::SP_MediaPause,
                      tr("Freeze the queue and its trials (they keep their memory), or let "
                         "them continue"));
  stop_ = toolButton(this, QStringLiteral("stopExperiment"), tr("Stop"), QStyle::SP_MediaStop,
                     tr("Stop the queue: each trial saves a checkpoint; Launch goes on from them"));
  queueState_ = new QLabel(this);
  queueState_->setObjectName(QStringLiteral("experimentQueueState"));
  queueState_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  queueState_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  editor_ = new AxesEditor(this);
  fixed_ = new FixedSettingsEditor(this);
  problem_ = new QLabel(this);
  problem_->setObjectName(QStringLiteral("experimentProblem"));
  problem_->setWordWrap(true);
  problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problem_->setStyleSheet(QStringLiteral("color: #b00020;"));
  // Two lines are kept for it whether or not there is a problem: a message that came and went
  // moved everything below it, and a click meant for the trials landed elsewhere. A longer
  // message is whole in its tooltip.
  problem_->setFixedHeight(2 * problem_->fontMetrics().lineSpacing() + 2);
  problem_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  locked_ = new QLabel(
      tr("The queue is running: the experiment is not edited meanwhile (its trials would no "
         "longer match). Stop it to change the axes; Launch then goes on."),
      this);
  locked_->setObjectName(QStringLiteral("experimentLockedNote"));
  locked_->setWordWrap(true);
  locked_->setStyleSheet(QStringLiteral("color: #555555;"));
  locked_->hide();
  trials_ = new TrialsTable(this);
  planSummary_ = new QLabel(this);
  planSummary_->setObjectName(QStringLiteral("experimentPlanSummary"));
  planSummary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  planSummary_->setWordWrap(true);  // a narrow pane wraps the summary rather than cutting it
  showTrials_ = toolButton(this, QStringLiteral("showTrialsInMonitor"), tr("Show in monitor"),
                           QStyle::SP_FileDialogContentsView,
                           tr("Overlay the selected trials' runs in the training monitor"));
  results_ = new ResultsView(this);

  auto* top = new QHBoxLayout;
  auto* chooserLabel = new QLabel(tr("Experiment"), this);
  chooserLabel->setBuddy(chooser_);
  top->addWidget(chooserLabel);
  top->addWidget(chooser_);
  top->addWidget(new_);
  top->addSpacing(16);
  top->addWidget(launch_);
  top->addWidget(pause_);
  top->addWidget(stop_);
  top->addSpacing(12);
  top->addWidget(queueState_, 1);

  auto* setup = new QWidget(this);
  auto* setupLayout = new QVBoxLayout(setup);
  setupLayout->setContentsMargins(0, 0, 4, 0);
  setupLayout->addWidget(editor_, 1);
  setupLayout->addWidget(fixed_);
  setupLayout->addWidget(problem_);
  setupLayout->addWidget(locked_);
  auto* trialsBox = new QWidget(this);
  auto* trialsLayout = new QVBoxLayout(trialsBox);
  trialsLayout->setContentsMargins(4, 0, 0, 0);
  trialsLayout->setSpacing(4);
  auto* trialsHeader = new QHBoxLayout;
  trialsHeader->addWidget(planSummary_, 1);
  trialsHeader->addWidget(showTrials_);
  trialsLayout->addLayout(trialsHeader);
  trialsLayout->addWidget(trials_, 1);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(setup);
  splitter->addWidget(trialsBox);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({470, 530});  // proportions: both tables need the room
  splitter->setChildrenCollapsible(false);

  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("experimentTabs"));
  tabs_->setDocumentMode(true);
  tabs_->addTab(splitter, tr("Set-up and trials"));
  tabs_->addTab(results_, tr("Results"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->setSpacing(4);
  layout->addLayout(top);
  layout->addWidget(tabs_, 1);

  poll_ = new QTimer(this);
  poll_->setInterval(kPollIntervalMs);
  connect(poll_, &QTimer::timeout, this, &ExperimentsPanel::refreshStatus);
  connect(editor_, &AxesEditor::edited, this, &ExperimentsPanel::applyEdits);
  connect(fixed_, &FixedSettingsEditor::edited, this, &ExperimentsPanel::applyEdits);
  connect(chooser_, &QComboBox::activated, this, &ExperimentsPanel::chooserActivated);
  connect(new_, &QToolButton::clicked, this, &ExperimentsPanel::newExperimentAsked);
  connect(launch_, &QToolButton::clicked, this, &ExperimentsPanel::launchAsked);
  connect(pause_, &QToolButton::clicked, this, &ExperimentsPanel::togglePause);
  connect(stop_, &QToolButton::clicked, this, &ExperimentsPanel::stop);
  connect(showTrials_, &QToolButton::clicked, this,
          [this] { emit showRunsRequested(trials_->selectedRunIds()); });
  connect(trials_, &QTableWidget::itemSelectionChanged, this,
          [this] { showTrials_->setEnabled(!trials_->selectedRunIds().isEmpty()); });
  connect(results_, &ResultsView::showRunsRequested, this, &ExperimentsPanel::showRunsRequested);
  connect(&document_, &ProjectDocument::pathChanged, this, &ExperimentsPanel::projectPathChanged);
  // A saved project is the experiments' base: plan again with it (the file as it is, or the
  // edit still waiting for a fix; the file is written only for an edit).
  connect(&document_, &ProjectDocument::modifiedChanged, this, [this](bool modified) {
    if (modified || !file_.isLoaded()) return;
    if (editPending_) {
      applyEdits();
    } else {
      check(file_.text(), true);
    }
  });
  showTrials_->setEnabled(false);
  projectPathChanged();
  poll_->start();
}

ExperimentsPanel::~ExperimentsPanel() = default;

void ExperimentsPanel::setProgram(const QString& program) {
  program_ = program;
  updateControls();
  updateQueueLabel();
}

void ExperimentsPanel::projectPathChanged() {
  launchedHere_ = false;
  launchProblem_.clear();
  file_ = ExperimentFile();  // the last project's experiment is not this one's
  refreshExperiments();
  if (chooser_->count() > 0) {
    // The experiment last written is the one being worked on.
    QString newest = chooser_->itemData(0).toString();
    for (int i = 1; i < chooser_->count(); ++i) {
      const QString path = chooser_->itemData(i).toString();
      if (QFileInfo(path).lastModified() > QFileInfo(newest).lastModified()) newest = path;
    }
    openExperiment(newest);
    return;
  }
  plan_.reset();
  experimentName_.clear();
  snapshot_ = ExperimentSnapshot();
  snapshotSignature_.clear();
  editor_->setRows({}, SearchRow{});
  fixed_->setRows({});
  trials_->setRowCount(0);
  results_->clear();
  planSummary_->clear();
  showProblem(QString());
  updateControls();
  updateQueueLabel();
}

void ExperimentsPanel::refreshExperiments() {
  QStringList files =
      document_.isUntitled() ? QStringList() : ExperimentFile::list(document_.folder());
  // An experiment opened from elsewhere stays listed while it is open.
  if (file_.isLoaded() && !files.contains(file_.path()) && QFileInfo::exists(file_.path())) {
    files.append(file_.path());
  }
  QStringList shown;
  for (int i = 0; i < chooser_->count(); ++i) shown.append(chooser_->itemData(i).toString());
  if (files == shown) return;
  const QSignalBlocker block(chooser_);
  chooser_->clear();
  for (const QString& file : files) chooser_->addItem(QFileInfo(file).completeBaseName(), file);
  const int current = chooser_->findData(file_.path());
  chooser_->setCurrentIndex(current);
}

void ExperimentsPanel::chooserActivated(int index) {
  const QString path = chooser_->itemData(index).toString();
  if (path != file_.path()) openExperiment(path);
}

bool ExperimentsPanel::openExperiment(const QString& given) {
  const QString path = QDir::cleanPath(QFileInfo(given).absoluteFilePath());
  QString problem;
  const bool loaded = file_.load(path, &problem);
  fileStamp_ = stampOf(path);
  editPending_ = false;
  plan_.reset();
  snapshot_ = ExperimentSnapshot();
  snapshotSignature_.clear();
  launchedHere_ = false;
  launchProblem_.clear();
  experimentName_ = QFileInfo(path).completeBaseName();
  refreshExperiments();
  if (chooser_->findData(path) < 0) chooser_->addItem(QFileInfo(path).completeBaseName(), path);
  {
    const QSignalBlocker block(chooser_);
    chooser_->setCurrentIndex(chooser_->findData(path));
  }
  editor_->setRows(file_.axes(), file_.search());
  fixed_->setRows(file_.fixedSettings());
  trials_->setRowCount(0);
  results_->clear();
  if (!loaded) {
    showProblem(problem);
    planSummary_->clear();
    updateControls();
    updateQueueLabel();
    return false;
  }
  check(file_.text(), true);
  return true;
}

QString ExperimentsPanel::createExperiment(const QString& name) {
  if (document_.isUntitled()) {
    return tr("Save the project first: its experiments live in its folder");
  }
  if (!ExperimentFile::isValidName(name)) {
    return tr("'%1': use letters, digits, '-', '_' and '.' only (the name names a file)").arg(name);
  }
  const QString folder = ExperimentFile::folderOf(document_.folder());
  const QString path = QDir(folder).filePath(name + QStringLiteral(".yaml"));
  if (QFileInfo::exists(path)) return tr("%1 exists already").arg(QDir::toNativeSeparators(path));
  try {
    QDir().mkpath(folder);
    engine::writeFileAtomically(toNativePath(path), ExperimentFile::starterText(name));
  } catch (const std::exception& error) {
    return QString::fromUtf8(error.what());
  }
  refreshExperiments();
  openExperiment(path);
  tabs_->setCurrentIndex(0);
  return QString();
}

void ExperimentsPanel::newExperimentAsked() {
  if (document_.isUntitled()) {
    QMessageBox::information(this, tr("New Experiment"),
                             tr("Save the project first: its experiments live in its folder."));
    return;
  }
  bool ok = false;
  const QString name = QInputDialog::getText(
      this, tr("New Experiment"),
      tr("Name (letters, digits, '-', '_', '.'); the file is experiments/NAME.yaml:"),
      QLineEdit::Normal, QStringLiteral("lr-sweep"), &ok);
  if (!ok || name.trimmed().isEmpty()) return;
  const QString problem = createExperiment(name.trimmed());
  if (!problem.isEmpty()) QMessageBox::warning(this, tr("New Experiment"), problem);
}

QString ExperimentsPanel::unappliedEdits() const {
  if (!editPending_ || !file_.isLoaded()) return QString();
  return tr("The Experiments panel's edit of %1: %2")
      .arg(QDir::toNativeSeparators(file_.path()), problem_->text());
}

void ExperimentsPanel::applyEdits() {
  if (!file_.isLoaded()) return;
  editPending_ = true;  // until the edit is checked and written
  std::string text;
  try {
    text = file_.compose(editor_->axes(), editor_->search(), fixed_->rows());
  } catch (const engine::ConfigError& error) {
    const QString message = ExperimentFile::describe(error, editor_->axes(), file_.path());
    markProblem(error, message);
    plan_.reset();
    trials_->setRowCount(0);
    planSummary_->setText(tr("No trials until the problem is fixed"));
    showProblem(message);
    updateControls();
    updateQueueLabel();
    return;
  }
  check(text, false);
}

void ExperimentsPanel::markProblem(const engine::ConfigError& error, const QString& message) {
  const auto [axis, field] = ExperimentFile::locate(error.key());
  editor_->clearProblem();
  fixed_->clearProblem();
  if (field.startsWith(QLatin1String("set."))) {
    fixed_->markProblem(field.mid(4), message);
    return;
  }
  // A fixed value the base project rejects names the project's own key.
  const QString key = QString::fromStdString(error.key());
  const auto rows = fixed_->rows();
  const bool fixedKey = std::any_of(rows.begin(), rows.end(), [&key](const FixedSetting& row) {
    return row.key.trimmed() == key;
  });
  if (axis < 0 && field.isEmpty() && fixedKey) {
    fixed_->markProblem(key, message);
  } else {
    editor_->markProblem(axis, field, message);
  }
}

void ExperimentsPanel::check(const std::string& text, bool fromDisk) {
  const std::string file = toNativePath(file_.path());
  try {
    const engine::Experiment experiment = engine::parseExperiment(text, file);
    experimentName_ = QString::fromStdString(experiment.name);
    engine::ExperimentPlan plan = engine::planExperiment(experiment, vocabulary_.function());
    if (!fromDisk && text != file_.text()) {
      file_.save(text);
      fileStamp_ = stampOf(file_.path());
    }
    editPending_ = false;
    plan_ = std::move(plan);
    editor_->clearProblem();
    fixed_->clearProblem();
    showProblem(QString());
    showPlan();
  } catch (const engine::ConfigError& error) {
    const QString message =
        ExperimentFile::describe(error, editor_->axes(), fromDisk ? QString() : file_.path());
    markProblem(error, message);
    plan_.reset();
    trials_->setRowCount(0);
    planSummary_->setText(tr("No trials until the problem is fixed"));
    showProblem(fromDisk ? message : message + tr(" \u2014 the file keeps its last valid version"));
  } catch (const std::exception& error) {
    plan_.reset();
    trials_->setRowCount(0);
    planSummary_->setText(tr("No trials until the problem is fixed"));
    showProblem(QString::fromUtf8(error.what()));
  }
  snapshotSignature_.clear();
  refreshStatus();
}

void ExperimentsPanel::showProblem(const QString& text) {
  problem_->setText(text);
  problem_->setToolTip(text);
}

void ExperimentsPanel::showPlan() {
  trials_->setPlan(*plan_);
  const engine::ExperimentPlan& plan = *plan_;
  int64_t fewest = 0, most = 0;
  for (const auto& trial : plan.trials) {
    if (trial.parameters <= 0) continue;
    fewest = fewest == 0 ? trial.parameters : std::min(fewest, trial.parameters);
    most = std::max(most, trial.parameters);
  }
  QString text =
      tr("%1 \u00d7 %2 = %3 (%4 search)")
          .arg(plural(plan.configurations, tr("configuration"), tr("configurations")),
               plural(static_cast<qint64>(plan.experiment.seeds.size()), tr("seed"), tr("seeds")),
               plural(static_cast<qint64>(plan.trials.size()), tr("trial"), tr("trials")),
               QString::fromStdString(engine::searchKindName(plan.experiment.search.kind)));
  if (most > 0) {
    text += fewest == most
                ? tr(", %1 parameters").arg(formatCount(most))
                : tr(", %1\u2013%2 parameters").arg(formatCount(fewest), formatCount(most));
  }
  planSummary_->setText(text);
  planSummary_->setToolTip(
      tr("Base project: %1")
          .arg(QDir::toNativeSeparators(fromNativePath(plan.experiment.baseFile))));
}

bool ExperimentsPanel::externalChange() {
  if (!file_.isLoaded()) return false;
  const qint64 stamp = stampOf(file_.path());
  if (stamp == fileStamp_) return false;
  fileStamp_ = stamp;
  std::string text;
  try {
    text = engine::readWholeFile(toNativePath(file_.path()));
  } catch (const std::exception&) {
    return false;
  }
  return text != file_.text();
}

void ExperimentsPanel::refreshStatus() {
  refreshExperiments();
  if (file_.isLoaded() && !QFileInfo::exists(file_.path())) {
    // Deleted (or renamed) outside: on to the project's other experiments, if any.
    projectPathChanged();
    return;
  }
  if (externalChange()) {
    // Edited in a text editor (or written by another workbench): read it again.
    openExperiment(file_.path());
    return;
  }
  if (plan_) {
    ExperimentSnapshot snapshot = readExperimentSnapshot(*plan_);
    const QString signature = snapshot.signature();
    snapshot_ = std::move(snapshot);
    if (signature != snapshotSignature_) {
      snapshotSignature_ = signature;
      trials_->setProgress(snapshot_);
      results_->setResults(*plan_, snapshot_.results);
    }
  } else if (!experimentName_.isEmpty() && !document_.isUntitled()) {
    // Without a plan the queue can still be followed (and stopped) by its lock.
    snapshot_ = ExperimentSnapshot();
    const engine::QueueControl control(queueFolder(), experimentName_.toStdString());
    snapshot_.queue = control.holder();
    if (snapshot_.queue) {
      snapshot_.queueLocal = control.local(*snapshot_.queue);
      snapshot_.paused = snapshot_.queueLocal && control.paused();
    }
  }
  if (!snapshot_.queue) stopping_ = false;
  updateControls();
  updateQueueLabel();
}

void ExperimentsPanel::updateControls() {
  const bool running = snapshot_.queue.has_value();
  const bool canLaunch = plan_.has_value() && !plan_->trials.empty() && !running &&
                         !program_.isEmpty() && !document_.isUntitled();
  launch_->setEnabled(canLaunch);
  pause_->setEnabled(running && snapshot_.queueLocal && !stopping_);
  pause_->setText(snapshot_.paused ? tr("Continue") : tr("Pause"));
  pause_->setIcon(
      style()->standardIcon(snapshot_.paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
  stop_->setEnabled(running && snapshot_.queueLocal && !stopping_);
  new_->setEnabled(!document_.isUntitled());
  editor_->setEditable(!running && file_.isLoaded());
  fixed_->setEditable(!running && file_.isLoaded());
  locked_->setVisible(running);
}

std::string ExperimentsPanel::queueFolder() const {
  return plan_ ? plan_->folder() : toNativePath(document_.folder());
}

QString ExperimentsPanel::queueLog() const {
  if (experimentName_.isEmpty()) return {};
  return fromNativePath(
             engine::ExperimentPaths::folder(queueFolder(), experimentName_.toStdString())) +
         QStringLiteral("/queue.log");
}

bool ExperimentsPanel::openOwnLog(QFile& file, engine::OwnFileUse use) const {
  if (queueLog().isEmpty()) return false;
  int fd = -1;
  try {
    fd = engine::openOwnFile(toNativePath(queueLog()), use);  // never a link's target, a FIFO
  } catch (const std::exception&) {
    return false;  // the launch says why, when it opens the log itself
  }
  const auto mode = use == engine::OwnFileUse::Read ? QIODevice::ReadOnly : QIODevice::Append;
  return file.open(fd, mode, QFileDevice::AutoCloseHandle);
}

QString ExperimentsPanel::lastLogLine() const {
  QFile log;
  if (!openOwnLog(log, engine::OwnFileUse::Read)) return {};
  if (log.size() > 4096) log.seek(log.size() - 4096);
  const QStringList lines =
      QString::fromUtf8(log.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  return lines.isEmpty() ? QString() : lines.last().trimmed();
}

void ExperimentsPanel::updateQueueLabel() {
  QString text;
  QString tip;
  if (document_.isUntitled()) {
    text = tr("Save the project: its experiments live in its folder");
  } else if (!file_.isLoaded() && chooser_->count() == 0) {
    text = tr("No experiment yet: New\u2026 writes a first one");
  } else if (snapshot_.queue) {
    const qint64 total = plan_ ? static_cast<qint64>(plan_->trials.size()) : 0;
    const QString state = snapshot_.paused ? tr("Paused")
                          : stopping_      ? tr("Stopping (the trials save checkpoints)")
                                           : tr("Running");
    text = state;
    if (plan_) {
      text += tr(": %1 done, %2 running, %3 queued of %4")
                  .arg(snapshot_.count(engine::TrialStatus::Done))
                  .arg(snapshot_.count(engine::TrialStatus::Running))
                  .arg(snapshot_.count(engine::TrialStatus::Queued))
                  .arg(total);
      if (const qint64 failed = snapshot_.count(engine::TrialStatus::Failed)) {
        text += tr(", %1 failed").arg(failed);
      }
    }
    if (!snapshot_.queueLocal) {
      text += tr(" on %1; control it there").arg(QString::fromStdString(snapshot_.queue->host));
    }
    tip = tr("Queue: %1").arg(QString::fromStdString(snapshot_.queue->describe()));
  } else if (!launchProblem_.isEmpty()) {
    text = launchProblem_;
  } else if (plan_) {
    const qint64 total = static_cast<qint64>(plan_->trials.size());
    const qint64 done = snapshot_.count(engine::TrialStatus::Done);
    const qint64 failed = snapshot_.count(engine::TrialStatus::Failed);
    const qint64 cut = snapshot_.count(engine::TrialStatus::Cut);
    int64_t ran = 0;
    for (size_t i = 0; i < snapshot_.progress.size(); ++i) ran += snapshot_.current[i] ? 1 : 0;
    if (ran == 0) {
      const engine::SlotPlan chosen =
          engine::chooseSlots(plan_->experiment, total, std::max(1, QThread::idealThreadCount()));
      text = tr("Not started: Launch trains the %1, %2 at a time")
                 .arg(plural(total, tr("trial"), tr("trials")))
                 .arg(chosen.count);
    } else if (done + failed + cut >= total) {
      text = tr("Finished: %1 of %2 done").arg(done).arg(total);
      if (failed == 1) text += tr(", 1 failed (Launch can train it again)");
      if (failed > 1) text += tr(", %1 failed (Launch can train them again)").arg(failed);
      if (cut > 0) text += tr(", %1 cut by halving").arg(cut);
    } else {
      text = tr("Stopped: %1 of %2 done; Launch goes on from the checkpoints").arg(done).arg(total);
      if (failed > 0) text += tr(" (%1 failed)").arg(failed);
    }
    if (snapshot_.changedTrials > 0) {
      text += tr("; %1 ran with an earlier version of the experiment")
                  .arg(plural(snapshot_.changedTrials, tr("trial"), tr("trials")));
    }
    if (!snapshot_.error.isEmpty()) text = snapshot_.error;
    if (program_.isEmpty()) {
      const QString missing =
          tr("mrnn (the tool that runs experiments) was not found beside the workbench, in the "
             "build tree or on PATH: Launch needs it");
      text = ran == 0 ? missing : text + QStringLiteral(" \u2014 ") + missing;
    }
    if (launchedHere_) {
      const QString last = lastLogLine();
      if (last.startsWith(QLatin1String("mrnn:"))) text += QStringLiteral(" \u2014 ") + last;
    }
  } else if (program_.isEmpty()) {
    text =
        tr("mrnn (the tool that runs experiments) was not found beside the workbench, in the "
           "build tree or on PATH: Launch needs it");
  } else {
    text = tr("Fix the experiment's problem to launch it");
  }
  queueState_->setText(text);
  queueState_->setToolTip(tip.isEmpty() ? text : tip + QLatin1Char('\n') + text);
  launch_->setToolTip(
      launch_->isEnabled()
          ? tr("Run the experiment's queue (`mrnn experiment run`) in the background; it goes "
               "on when the workbench closes, and after Stop goes on from the trials' "
               "checkpoints")
          : tr("Launch: %1").arg(text));
}

bool ExperimentsPanel::launch(bool replan, bool retryFailed) {
  if (!plan_ || program_.isEmpty() || document_.isUntitled() || isQueueRunning()) {
    updateQueueLabel();
    return false;
  }
  const QString folder = fromNativePath(plan_->folder());
  const QString log = queueLog();
  QDir().mkpath(QFileInfo(log).absolutePath());
  QStringList arguments{QStringLiteral("experiment"), QStringLiteral("run"), file_.path()};
  if (replan) arguments.append(QStringLiteral("--replan"));
  if (retryFailed) arguments.append(QStringLiteral("--retry-failed"));
  {
    // Each launch is marked in the log, so that its last line is this run's.
    QFile marker;
    if (openOwnLog(marker, engine::OwnFileUse::Append)) {
      marker.write(QStringLiteral("--- %1: launched from the workbench: %2 %3\n")
                       .arg(QDateTime::currentDateTime().toString(Qt::ISODate), program_,
                            arguments.join(QLatin1Char(' ')))
                       .toUtf8());
    }
  }
  try {
    QueueLauncher::startDetached(program_, arguments, folder, log);
  } catch (const std::exception& error) {
    launchProblem_ = tr("Could not launch: %1").arg(QString::fromUtf8(error.what()));
    updateQueueLabel();
    return false;
  }
  launchedHere_ = true;
  launchProblem_.clear();
  stopping_ = false;
  emit statusMessage(tr("Experiment '%1' launched; its output goes to %2")
                         .arg(experimentName_, QDir::toNativeSeparators(log)));
  // The queue takes its lock within moments: look sooner than the next poll.
  for (const int ms : {300, 1000}) QTimer::singleShot(ms, this, &ExperimentsPanel::refreshStatus);
  return true;
}

void ExperimentsPanel::launchAsked() {
  if (snapshot_.changedTrials > 0) {
    const auto answer = QMessageBox::question(
        this, tr("Experiment Changed"),
        tr("%1 ran with an earlier version of this experiment. Launching plans it afresh: "
           "every trial trains again, and the earlier runs stay in the run store. Launch?")
            .arg(plural(snapshot_.changedTrials, tr("trial"), tr("trials"))),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer == QMessageBox::Yes) launch(true);
    return;
  }
  const qint64 failed = snapshot_.count(engine::TrialStatus::Failed);
  if (failed == 0) {
    launch(false);
    return;
  }
  // Failed trials stay failed unless asked: a failure from outside the trial (a full disk, a
  // process killed) goes away, a model's own (NaN) comes back.
  QString reason;
  for (const engine::TrialProgress& row : snapshot_.progress) {
    if (row.trial.status == engine::TrialStatus::Failed && !row.trial.reason.empty()) {
      reason = QString::fromStdString(row.trial.reason);
      break;
    }
  }
  const qint64 waiting =
      snapshot_.count(engine::TrialStatus::Queued) + snapshot_.count(engine::TrialStatus::Running);
  const QString because = reason.isEmpty() ? QString() : tr(" (%1)").arg(reason);
  const QString question =
      failed == 1 ? tr("1 trial of this experiment failed%1. Train it again, from its run's last "
                       "checkpoint?")
                        .arg(because)
                  : tr("%1 trials of this experiment failed%2. Train them again, each from its "
                       "run's last checkpoint?")
                        .arg(QString::number(failed), because);
  QMessageBox box(QMessageBox::Question, tr("Failed Trials"), question, QMessageBox::NoButton,
                  this);
  box.setObjectName(QStringLiteral("retryFailedBox"));
  box.setInformativeText(
      tr("Retry Failed suits a failure from outside the trial: a disk that "
         "filled, a process killed. One the model brings on itself (its loss "
         "became NaN) is likely to come back."));
  QPushButton* retry = box.addButton(tr("Retry Failed"), QMessageBox::AcceptRole);
  QPushButton* without =
      waiting > 0 ? box.addButton(tr("Launch Without Them"), QMessageBox::NoRole) : nullptr;
  box.addButton(QMessageBox::Cancel);
  box.setDefaultButton(retry);
  box.exec();
  if (box.clickedButton() == retry) {
    launch(false, true);
  } else if (without != nullptr && box.clickedButton() == without) {
    launch(false);
  }
}

void ExperimentsPanel::togglePause() {
  if (experimentName_.isEmpty() || document_.isUntitled()) return;
  const engine::QueueControl control(queueFolder(), experimentName_.toStdString());
  std::string problem;
  const bool ok = snapshot_.paused ? control.resume(&problem) : control.pause(&problem);
  if (!ok) emit statusMessage(QString::fromStdString(problem));
  refreshStatus();
}

void ExperimentsPanel::stop() {
  if (experimentName_.isEmpty() || document_.isUntitled()) return;
  const engine::QueueControl control(queueFolder(), experimentName_.toStdString());
  std::string problem;
  if (!control.stop(&problem)) {
    emit statusMessage(QString::fromStdString(problem));
  } else {
    stopping_ = true;
    emit statusMessage(
        tr("Stopping experiment '%1': the trials save checkpoints").arg(experimentName_));
  }
  refreshStatus();
}

}  // namespace mrnn::widgets
