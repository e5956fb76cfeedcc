#pragma once

#include <QList>
#include <QString>
#include <QVariantMap>
#include <QWidget>

#include "widgets/training/training_event_metatypes.h"

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QSystemTrayIcon;
class QTimer;
class QToolBar;

namespace mrnn::widgets {

class ProjectDocument;
class ElidedLabel;
class ExportBar;
class DeviceChoiceBox;
class HessianFreeStepView;
class OptimizerEditor;
class ProcessCountBox;
class RankThroughputView;
class RunBanner;
class RunSettingsEditor;
class ToolBarRows;
class TrainingCharts;
class TrainingController;

// Trains the open project and shows the run as it goes: start, pause, resume and stop;
// live curves (loss raw and smoothed, validation, learning rate, gradient norm, throughput)
// against step, epoch or training time, log scale, zoom and pan, other runs overlaid; the
// engine's log, progress and ETA; and a notice when the run ends or fails. The run trains on
// an engine thread (TrainingController); this panel only draws what arrives, redrawing at
// most ~5 times a second however fast the steps come.
class TrainingMonitorPanel : public QWidget {
  Q_OBJECT

 public:
  // The charts are redrawn at most once per interval.
  static constexpr int kReplotIntervalMs = 200;

  explicit TrainingMonitorPanel(ProjectDocument& document, QWidget* parent = nullptr);
  ~TrainingMonitorPanel() override;

  // F5, F6, F5 (while paused), Shift+F5; for the main window's menu and toolbar. They are
  // also added to this panel, so their shortcuts work wherever the panel is shown.
  QAction* startAction() const { return start_; }
  QAction* pauseAction() const { return pause_; }
  QAction* resumeAction() const { return resume_; }
  QAction* stopAction() const { return stop_; }

  // The model composer says whether the model can be trained; `whyNot` is shown on the
  // Start button and in the notice when Start is pressed anyway.
  void setStartEnabled(bool ok, const QString& whyNot = QString());

  // How many processes the next run trains on (1: in the workbench). setProcessCount() sets
  // the count wanted, which the box shows clamped to what the project can use (the machine's
  // processors, or its GPUs for a CUDA project); the main window keeps it in the settings.
  int processCount() const;
  void setProcessCount(int processes);

  // Runs from the project's database to draw beside the live run (read on a worker thread;
  // overlaysLoaded() follows).
  void setOverlayRuns(const QList<qint64>& runIds);
  // Draws the project's trained runs (the newest kProjectRunsShown that took a step), as
  // when a project opens: a project with runs never shows an empty monitor.
  void showProjectRuns();
  static constexpr int kProjectRunsShown = 6;
  // Another project was opened: the banner, log, figures and curves of the last one go (unless
  // a run is training), and the new project's runs are drawn.
  void openProject();
  // The run store changed (another process trains, a run ended): while this monitor is not
  // training, the runs it shows are read again; if it shows the project's runs rather than
  // runs the user picked, a new run joins them, so a run started in a terminal plots live;
  // picked runs since deleted leave the picture, and with none left it follows the project.
  void followStore();
  QList<qint64> overlayRuns() const { return overlayIds_; }
  // Runs of one configuration trained with different seeds drawn as one mean line with a
  // ± std band (engine::groupBySeed), or each on its own; the overlays are read again.
  void setGroupSeeds(bool grouped);
  bool groupsSeeds() const;
  // How the researcher set the charts to be read (X axis, log scale, seeds as groups,
  // smoothing), for the application to keep between sessions; restoring ignores what it does
  // not know. The loss unit follows each project's level and is not kept.
  QVariantMap viewSettings() const;
  void restoreViewSettings(const QVariantMap& settings);
  QCheckBox* groupSeedsCheck() const { return groupSeeds_; }

  TrainingController* controller() const { return controller_; }
  TrainingCharts* charts() const { return charts_; }
  ExportBar* exportBar() const { return exportBar_; }
  RunBanner* banner() const { return banner_; }
  ProcessCountBox* processCountBox() const { return processes_; }
  DeviceChoiceBox* deviceChoiceBox() const { return device_; }
  RankThroughputView* rankThroughput() const { return rankView_; }
  HessianFreeStepView* hessianFreeStep() const { return hessianFreeView_; }
  OptimizerEditor* optimizerEditor() const { return optimizer_; }
  RunSettingsEditor* runSettingsEditor() const { return runSettings_; }
  QAction* optimizerAction() const { return optimizerAction_; }
  QString logText() const;
  // The figures strip's run: "run 3 · mlstm 64", or "-".
  QString runReadout() const;
  // Rows the tool bars take: a panel too narrow for one row wraps them (ToolBarRows).
  int toolBarRows() const;

 public slots:
  // Refuses (with a notice) while the model is invalid or the project is not saved; asks
  // the main window to save first (saveRequested) and goes on if it did.
  void start();
  // Continues run `runId` from `checkpoint`, its curves so far drawn before the new points.
  void startFromCheckpoint(qint64 runId, const QString& checkpoint);
  void pause();
  void resume();
  void stop();

 signals:
  // The project must be saved before a run can start: runs are stored beside project.yaml.
  void saveRequested();
  // A line for the main window's status bar.
  void statusMessage(const QString& message);
  // The run finished or was stopped (ok) or failed (the summary says why).
  void runEnded(bool ok, const QString& summary);
  // Overlay curves were read and drawn (`count` runs).
  void overlaysLoaded(int count);
  // The user chose another process count (not emitted when a project's limits clamp it).
  void processCountChanged(int processes);

 private:
  void buildActions();
  QWidget* buildToolBar();
  QWidget* buildStatsStrip();
  bool ensureSaved();
  void beginLiveRun(const QString& label);
  void onStep(const engine::StepEvent& event);
  void onValidation(const engine::ValidationEvent& event);
  void onCheckpoint(const engine::CheckpointEvent& event);
  void onFinished(const engine::FinishedEvent& event);
  void onFailed(const QString& reason);
  void onStateChanged();
  void updatePauseAction();
  void scheduleReplot();
  void refreshView();
  void updateStats();
  void appendLog(const QString& message);
  // The engine's notes stay in the banner, and in the banner the run ends with.
  void showNote(const QString& message);
  void notifyDesktop(const QString& title, const QString& message, bool failure);
  void loadCurves(const QList<qint64>& runIds, bool history);
  // Runs of different update rules shown together: plot them against the symbols read
  // rather than steps (a Hessian-free step reads as much as hundreds of Adam's).
  void preferFairAxis();
  // The loss is a real-valued output's squared error (the unit box says so).
  bool showsSquaredError() const;
  void applyDefaultUnit();
  void updateProcessCapacity();
  // The device box's choice, as one undoable edit of training.device.
  void chooseDevice(const QString& device);
  void applyProcessCount();
  QString runLabel(qint64 runId) const;
  // Run `runId`'s stored settings beside the project's, in a diff window.
  void compareWithProject(qint64 runId);
  QString databasePath() const;
  // The name run `runId` records in the store; empty when it cannot be read.
  QString storedRunName(qint64 runId) const;

  ProjectDocument& document_;
  TrainingController* controller_ = nullptr;
  TrainingCharts* charts_ = nullptr;
  RunBanner* banner_ = nullptr;
  QAction* start_ = nullptr;
  QAction* pause_ = nullptr;
  QAction* resume_ = nullptr;
  QAction* stop_ = nullptr;
  QAction* fit_ = nullptr;
  QAction* optimizerAction_ = nullptr;
  OptimizerEditor* optimizer_ = nullptr;
  HessianFreeStepView* hessianFreeView_ = nullptr;
  ExportBar* exportBar_ = nullptr;
  RunSettingsEditor* runSettings_ = nullptr;
  ToolBarRows* toolRows_ = nullptr;  // controls; chart view; settings and export
  bool followingProject_ = false;    // the overlays are showProjectRuns()' choice
  QComboBox* xAxis_ = nullptr;
  QComboBox* unit_ = nullptr;
  QCheckBox* logScale_ = nullptr;
  QCheckBox* groupSeeds_ = nullptr;
  QDoubleSpinBox* smoothing_ = nullptr;
  DeviceChoiceBox* device_ = nullptr;
  ProcessCountBox* processes_ = nullptr;
  RankThroughputView* rankView_ = nullptr;
  int wantedProcesses_ = 1;
  bool adjustingProcesses_ = false;  // the box changes because of a project's limits
  ElidedLabel* runValue_ = nullptr;
  QLabel* stepValue_ = nullptr;
  QLabel* epochValue_ = nullptr;
  QLabel* lossValue_ = nullptr;
  QLabel* bestValue_ = nullptr;
  QLabel* speedValue_ = nullptr;
  QLabel* elapsedValue_ = nullptr;
  QLabel* etaValue_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  QTimer* replotTimer_ = nullptr;
  QSystemTrayIcon* tray_ = nullptr;

  bool startOk_ = true;
  QString whyNot_;
  bool runActive_ = false;
  qint64 liveRunId_ = 0;
  QString liveRunName_;  // the live run's name in the store
  bool haveStep_ = false;
  engine::StepEvent lastStep_;
  bool haveBest_ = false;
  engine::ValidationEvent best_;
  QString lastStatus_;
  QStringList notes_;  // the live run's notes, without their "note: "
  QList<qint64> overlayIds_;
  int curveLoads_ = 0;  // generation: a newer request makes older results stale
  int defaultUnitLevel_ = -1;
};

}  // namespace mrnn::widgets
