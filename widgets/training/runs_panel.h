#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QWidget>
#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace mrnn::engine {
struct ResumePoint;
struct RunRecord;
}  // namespace mrnn::engine

namespace mrnn::widgets {

class BackgroundJob;
class ElidedLabel;
class ProjectDocument;
class RunBanner;
class RunsTableModel;
class TrainingController;

// Every run in the project's database (runs.sqlite beside project.yaml) in a sortable,
// filterable table. Selecting runs overlays their curves in the training monitor
// (overlayRunsChanged); two selected runs can have their configs compared; a run can be
// resumed from its latest checkpoint (or, when that one is missing or damaged, from its best,
// offered in the banner), evaluated on the test split (on a worker thread),
// deleted (after asking, with its checkpoint files) and the table exported as CSV. A run's
// model is exported for PyTorch (a state dict or safetensors), and a PyTorch model imported
// as a run (ImportModelDialog), both on worker threads.
class RunsPanel : public QWidget {
  Q_OBJECT

 public:
  // Refreshes asked for while a run trains are coalesced to one per interval.
  static constexpr int kRefreshCoalesceMs = 1000;

  explicit RunsPanel(ProjectDocument& document, QWidget* parent = nullptr);
  ~RunsPanel() override;

  // Refreshes as the controller's run progresses, and keeps Resume and the deletion of a
  // training run off while one trains.
  void attachController(TrainingController* controller);
  // While a run trains, another cannot be resumed and runs marked running stay.
  void setTrainingActive(bool active);

  RunsTableModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTableView* view() const { return view_; }
  RunBanner* banner() const { return banner_; }
  QLineEdit* filterEdit() const { return filter_; }
  QAction* refreshAction() const { return refresh_; }
  QAction* diffAction() const { return diff_; }
  QAction* resumeAction() const { return resume_; }
  QAction* evaluateAction() const { return evaluate_; }
  QAction* deleteAction() const { return delete_; }
  QAction* exportAction() const { return export_; }
  QAction* importModelAction() const { return importModel_; }
  QAction* exportModelAction() const { return exportModel_; }

  // Selected runs, in table order.
  QList<qint64> selectedRunIds() const;
  void selectRuns(const QList<qint64>& runIds);
  // Lists, selects and announces a run the import dialog recorded.
  void showImportedRun(qint64 runId, const QString& name, const QString& file,
                       const QString& description);
  // Writes RunStore::exportRunsCsv() to `path` atomically; false (with a notice) on failure.
  bool exportCsvTo(const QString& path);
  bool isEvaluating() const;
  // Writes run `runId`'s best (else latest) checkpoint to `path` on a worker thread: a
  // safetensors file when the name ends in .safetensors, else a PyTorch state dict with its
  // description in `path`.json. false (with a notice) when refused at once: no checkpoint, an
  // export under way, an unsaved project. modelExported() tells how it ended.
  // `replaceConfirmed`: the user agreed to replace a file at `path` (a file dialog asked);
  // otherwise only an earlier export is replaced.
  bool exportModelTo(qint64 runId, const QString& path, bool replaceConfirmed = true);
  bool isExportingModel() const { return modelExport_ != nullptr; }
  // Records, on a worker thread, the runs whose checkpoints the run database does not (it was
  // lost); with `setAsideFirst`, first moves a database that cannot be read out of the way
  // (engine/training/run_recovery.h). The banner offers it when refresh() finds such runs.
  void recoverRuns(bool setAsideFirst);
  bool isRecovering() const { return recovery_ != nullptr; }

 public slots:
  // Re-reads the database now (nothing is created when there is none yet).
  void refresh();
  // Re-reads it soon, at most once per kRefreshCoalesceMs.
  void refreshSoon();
  void diffSelected();
  void resumeSelected();
  void evaluateSelected();
  void cancelEvaluation();
  // Asks first; removes the runs, their metrics and their checkpoint folders.
  void deleteSelected();
  // Asks for a file name, then exportCsvTo().
  void exportCsv();
  // Asks for a file name and format, then exportModelTo() for the selected run.
  void exportModelSelected();
  // Opens the import dialog; the imported run is then listed and selected.
  void importModel();

 signals:
  void overlayRunsChanged(const QList<qint64>& runIds);
  // Continue `runId` from its latest checkpoint (TrainingMonitorPanel::startFromCheckpoint).
  void resumeRequested(qint64 runId, const QString& checkpoint);
  void evaluationFinished(qint64 runId, bool ok, const QString& message);
  void statusMessage(const QString& message);
  void modelExported(qint64 runId, bool ok, const QString& message);
  void runImported(qint64 runId);

 private:
  void buildActions();
  void updateActions();
  // Export Model's state and tooltip: why it is off, or which checkpoint it writes.
  void updateExportModelAction(const QList<qint64>& ids);
  void showContextMenu(const QPoint& at);
  // The run's latest checkpoint cannot be resumed from (`point` says why): the banner says
  // so, with a link that resumes from its best checkpoint when that one is whole.
  void offerBestCheckpoint(qint64 runId, const engine::ResumePoint& point);
  // Scores `checkpoint` (the run's best, else its latest, when empty) on the test split; one
  // that cannot be read is said with a link to the run's other checkpoint when that is whole.
  void evaluateRun(qint64 runId, const QString& checkpoint);
  // The banner's offer to recover runs (or set a damaged database aside), once for each set.
  void offerRecovery(const QList<qint64>& unrecorded, bool damaged);
  // The runs whose checkpoints are in `folder` but not among `runs` (the database's, as read).
  static QList<qint64> unrecordedRunIds(const QString& folder,
                                        const std::vector<engine::RunRecord>& runs);
  // "3 runs, 2 finished", and how many the filter shows.
  void updateFooter();
  // What deleting the runs `ids` does to experiments they are trials of ("" when none is).
  QString trialsNote(const QList<qint64>& ids) const;
  // Writes a name or note typed in the table to the run store.
  void nameRun(qint64 runId, int column, const QString& text);
  void onSelectionChanged();
  void showMessage(const QString& message);
  QString databasePath() const;
  QString runTitle(qint64 runId) const;

  ProjectDocument& document_;
  RunsTableModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* view_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QLabel* emptyLabel_ = nullptr;
  QLineEdit* filter_ = nullptr;
  RunBanner* banner_ = nullptr;
  qint64 bannerRun_ = 0;  // the run the banner names by its name, if any
  ElidedLabel* footer_ = nullptr;
  int finished_ = 0;  // runs finished, of all listed
  QProgressBar* progress_ = nullptr;
  QToolButton* cancel_ = nullptr;
  QAction* refresh_ = nullptr;
  QAction* diff_ = nullptr;
  QAction* resume_ = nullptr;
  QAction* evaluate_ = nullptr;
  QAction* delete_ = nullptr;
  QAction* export_ = nullptr;
  QAction* importModel_ = nullptr;
  QAction* exportModel_ = nullptr;
  QTimer* refreshTimer_ = nullptr;
  BackgroundJob* evaluation_ = nullptr;
  BackgroundJob* resumeCheck_ = nullptr;  // reads a run's checkpoints before a resume
  qint64 evaluatingRun_ = 0;
  BackgroundJob* modelExport_ = nullptr;
  BackgroundJob* recovery_ = nullptr;
  QList<qint64> offeredUnrecorded_;  // what the banner last offered to recover
  bool offeredDamaged_ = false;
  QString offerTitle_;  // the banner's title while it shows that offer
  // The kind ("best" or "latest") of the checkpoint each run would export, for runs with one.
  QHash<qint64, QString> exportable_;
  bool trainingActive_ = false;
  QList<qint64> lastOverlay_;
};

}  // namespace mrnn::widgets
