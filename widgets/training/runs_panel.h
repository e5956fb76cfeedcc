#pragma once

#include <QList>
#include <QString>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace mrnn::widgets {

class BackgroundJob;
class ProjectDocument;
class RunBanner;
class RunsTableModel;
class TrainingController;

// Every run in the project's database (runs.sqlite beside project.yaml) in a sortable,
// filterable table. Selecting runs overlays their curves in the training monitor
// (overlayRunsChanged); two selected runs can have their configs compared; a run can be
// resumed from its latest checkpoint, evaluated on the test split (on a worker thread),
// deleted (after asking, with its checkpoint files) and the table exported as CSV.
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

  // Selected runs, in table order.
  QList<qint64> selectedRunIds() const;
  void selectRuns(const QList<qint64>& runIds);
  // Writes RunStore::exportRunsCsv() to `path` atomically; false (with a notice) on failure.
  bool exportCsvTo(const QString& path);
  bool isEvaluating() const;

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

 signals:
  void overlayRunsChanged(const QList<qint64>& runIds);
  // Continue `runId` from its latest checkpoint (TrainingMonitorPanel::startFromCheckpoint).
  void resumeRequested(qint64 runId, const QString& checkpoint);
  void evaluationFinished(qint64 runId, bool ok, const QString& message);
  void statusMessage(const QString& message);

 private:
  void buildActions();
  void updateActions();
  // "3 runs, 2 finished", and how many the filter shows.
  void updateFooter();
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
  QLabel* footer_ = nullptr;
  int finished_ = 0;  // runs finished, of all listed
  QProgressBar* progress_ = nullptr;
  QToolButton* cancel_ = nullptr;
  QAction* refresh_ = nullptr;
  QAction* diff_ = nullptr;
  QAction* resume_ = nullptr;
  QAction* evaluate_ = nullptr;
  QAction* delete_ = nullptr;
  QAction* export_ = nullptr;
  QTimer* refreshTimer_ = nullptr;
  BackgroundJob* evaluation_ = nullptr;
  qint64 evaluatingRun_ = 0;
  bool trainingActive_ = false;
  QList<qint64> lastOverlay_;
};

}  // namespace mrnn::widgets
