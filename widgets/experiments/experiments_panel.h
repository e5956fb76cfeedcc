#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include <optional>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/io/own_file.h"
#include "widgets/experiments/experiment_file.h"
#include "widgets/experiments/experiment_snapshot.h"
#include "widgets/experiments/vocabulary_cache.h"

class QComboBox;
class QFile;
class QLabel;
class QTabWidget;
class QTimer;
class QToolButton;

namespace mrnn::widgets {

class AxesEditor;
class FixedSettingsEditor;
class ProjectDocument;
class ResultsView;
class TrialsTable;

// The open project's experiments (docs/experiments.md): pick one of experiments/*.yaml or
// start a new one; edit its axes, search, seeds and slots in a table, each change checked by
// the engine, written atomically and planned again at once (the trials and their parameter
// counts follow; a problem is shown in words and Launch waits for it to be fixed). Launch runs
// `mrnn experiment run` detached, so the queue goes on when the workbench closes; Pause and
// Continue freeze and wake it with its trials; Stop lets every trial save a checkpoint (Launch
// goes on from them). The trials' status is read every two seconds from the run database;
// the results (table, metric against an axis, parallel coordinates) fill in as trials end.
class ExperimentsPanel : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kPollIntervalMs = 2000;

  explicit ExperimentsPanel(ProjectDocument& document, QWidget* parent = nullptr);
  ~ExperimentsPanel() override;

  // An edit the file does not hold because it has a problem (the file keeps its last valid
  // version): the file and the problem, for a question before the edit would be lost; empty
  // when every edit is written.
  QString unappliedEdits() const;

  // The `mrnn` Launch runs (findMrnnProgram() unless set; tests set the build's).
  void setProgram(const QString& program);
  QString program() const { return program_; }

  // Opens an experiment file of the project (or any experiment file); false with the
  // problem shown when it cannot be read.
  bool openExperiment(const QString& path);
  // Writes a starter experiment experiments/<name>.yaml and opens it; the problem in words
  // (empty on success).
  QString createExperiment(const QString& name);
  QString experimentFile() const { return file_.path(); }
  // The plan of the experiment as last checked; nullopt while it has a problem.
  const std::optional<engine::ExperimentPlan>& plan() const { return plan_; }
  const ExperimentSnapshot& snapshot() const { return snapshot_; }
  bool isQueueRunning() const { return snapshot_.queue.has_value(); }

  QComboBox* experimentChooser() const { return chooser_; }
  AxesEditor* axesEditor() const { return editor_; }
  FixedSettingsEditor* fixedSettingsEditor() const { return fixed_; }
  TrialsTable* trialsTable() const { return trials_; }
  ResultsView* resultsView() const { return results_; }
  QTabWidget* tabs() const { return tabs_; }
  QToolButton* newButton() const { return new_; }
  QToolButton* launchButton() const { return launch_; }
  QToolButton* pauseButton() const { return pause_; }
  QToolButton* stopButton() const { return stop_; }
  QToolButton* showTrialsButton() const { return showTrials_; }
  // The experiment's problem (empty when it plans), and the queue's state, in words.
  QLabel* problemLabel() const { return problem_; }
  QLabel* queueLabel() const { return queueState_; }
  QLabel* planLabel() const { return planSummary_; }

 public slots:
  // Starts the queue; with `replan`, `--replan` (trials that ran with an earlier version of
  // the experiment train again); with `retryFailed`, `--retry-failed`. Returns false with the
  // reason shown when it cannot start.
  bool launch(bool replan = false, bool retryFailed = false);
  // Asks (when trials ran with an earlier version, or some failed) then launch(); the Launch
  // button.
  void launchAsked();
  void togglePause();
  void stop();
  // Reads the queue's state now (the poll does it every kPollIntervalMs).
  void refreshStatus();
  // Lists the project's experiments again (after the project changed or a file appeared).
  void refreshExperiments();
  // Asks for a name, then createExperiment(); the New button.
  void newExperimentAsked();

 signals:
  // "Show in monitor": the training monitor overlays these runs.
  void showRunsRequested(const QList<qint64>& runIds);
  void statusMessage(const QString& message);

 private:
  void projectPathChanged();
  void chooserActivated(int index);
  void applyEdits();
  // Checks `text` (the file's, or an edit's), plans it and shows the plan or the problem;
  // writes the edit when it plans and differs from the file.
  void check(const std::string& text, bool fromDisk);
  // Marks the field a problem names: an axis, a search field or a fixed setting.
  void markProblem(const engine::ConfigError& error, const QString& message);
  void showProblem(const QString& text);
  void showPlan();
  void updateControls();
  void updateQueueLabel();
  // The project folder whose run database holds the queue (the base project's).
  std::string queueFolder() const;
  QString queueLog() const;
  // The queue's log, opened as the workbench's own file (a link or FIFO there is left alone).
  bool openOwnLog(QFile& file, engine::OwnFileUse use) const;
  QString lastLogLine() const;
  bool externalChange();

  ProjectDocument& document_;
  ExperimentFile file_;
  VocabularyCache vocabulary_;
  std::optional<engine::ExperimentPlan> plan_;
  ExperimentSnapshot snapshot_;
  QString snapshotSignature_;
  QString experimentName_;
  QString program_;
  QString launchProblem_;
  bool launchedHere_ = false;
  bool stopping_ = false;
  bool editPending_ = false;  // the editor holds an edit not written (it has a problem)
  qint64 fileStamp_ = 0;

  QComboBox* chooser_ = nullptr;
  QToolButton* new_ = nullptr;
  QToolButton* launch_ = nullptr;
  QToolButton* pause_ = nullptr;
  QToolButton* stop_ = nullptr;
  QToolButton* showTrials_ = nullptr;
  QLabel* queueState_ = nullptr;
  QLabel* problem_ = nullptr;
  QLabel* locked_ = nullptr;  // why the editor is read-only while the queue runs
  QLabel* planSummary_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  AxesEditor* editor_ = nullptr;
  FixedSettingsEditor* fixed_ = nullptr;
  TrialsTable* trials_ = nullptr;
  ResultsView* results_ = nullptr;
  QTimer* poll_ = nullptr;
};

}  // namespace mrnn::widgets
