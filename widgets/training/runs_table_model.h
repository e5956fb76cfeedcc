#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QVector>
#include <vector>

#include "engine/config/loss_unit.h"
#include "engine/store/run_store.h"

namespace mrnn::widgets {

// Every run of a project's database as a table row: identity, model, the hyperparameters a
// researcher compares runs by (read from the config each run stored), results, duration and
// status. Display text is formatted; SortRole gives the raw value so that sorting is
// numeric, with absent results after every present one.
class RunsTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Id,
    Name,
    Model,
    Parameters,
    Optimizer,
    LearningRate,
    Batch,
    Bptt,
    Hidden,
    BestValid,
    Test,
    Steps,
    Duration,
    Status,
    Started,
    Note,
    ColumnCount
  };
  static constexpr int SortRole = Qt::UserRole + 1;
  static constexpr int RunIdRole = Qt::UserRole + 2;

  explicit RunsTableModel(QObject* parent = nullptr);

  // Replaces the rows; when the same runs come back in the same order (a refresh during
  // training) the rows are updated in place, so views keep their selection and scroll.
  void setRuns(const std::vector<engine::RunRecord>& runs);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  // The name and the note are edited in place; the store is written by whoever hears
  // editRequested (the table shows the store, refreshed after the write).
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  const engine::RunRecord& run(int row) const { return rows_[row].record; }
  // Every row with every column the table shows (hyperparameters included), as CSV with a
  // header row: numbers unformatted (bits per symbol, seconds), absent values empty.
  std::string toCsv() const;
  qint64 runIdAt(int row) const { return rows_[row].record.id; }
  // -1 when the run is not in the table.
  int rowOfRun(qint64 runId) const;
  // "Finished", "Failed", ...
  static QString statusText(engine::RunStatus status);
  // What the status column says of a run imported from a file (engine::isImportedRun).
  static QString importedText();

 signals:
  // The user typed a new name or note for run `runId` (`column` is Name or Note).
  void editRequested(qint64 runId, int column, const QString& text);

 private:
  struct Row {
    engine::RunRecord record;
    bool configRead = false;
    QString configError;
    QString optimizer;
    double learningRate = 0.0;
    bool hasLearningRate = true;  // false for Hessian-free
    qint64 batch = 0;
    qint64 bptt = 0;
    QString hidden;
    qint64 firstHidden = 0;
    // The run's loss unit: a real-valued output's stored figures (bits, as the trainer records
    // every loss) are shown as the mean squared error they came from.
    engine::LossUnit unit = engine::LossUnit::Bits;
  };
  // The stored held-out figure (bits per symbol) as the row shows it.
  static double shownLoss(const Row& row, double bits);
  static Row makeRow(const engine::RunRecord& record);
  QVariant display(const Row& row, int column) const;
  QVariant sortValue(const Row& row, int column) const;
  QVariant toolTip(const Row& row, int column) const;

  QVector<Row> rows_;
};

}  // namespace mrnn::widgets
