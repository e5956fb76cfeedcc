#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "widgets/experiments/experiment_file.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QTimer;
class QToolButton;

namespace mrnn::widgets {

// The axes of an experiment as a table (key, kind, values or from/to, count, match
// parameters), with the search kind, its trials and rungs, the seeds and the slots below.
// Every committed change emits edited() (typing in the seeds or rungs after a short pause);
// the panel checks, writes and re-plans. A field the engine rejects is marked in red.
class AxesEditor : public QWidget {
  Q_OBJECT

 public:
  enum Column {
    KeyColumn,
    KindColumn,
    ValuesColumn,
    FromColumn,
    ToColumn,
    CountColumn,
    MatchColumn,
    ColumnCount
  };
  static constexpr int kTypingPauseMs = 400;

  explicit AxesEditor(QWidget* parent = nullptr);

  // Shows the rows without emitting edited().
  void setRows(const std::vector<AxisRow>& axes, const SearchRow& search);
  std::vector<AxisRow> axes() const;
  SearchRow search() const;

  // Edits a cell as a user would (the table's item), then emits edited().
  void setCell(int axis, Column column, const QString& text);
  void setKind(int axis, engine::AxisKind kind);
  void addAxis();
  void removeAxis(int axis);

  // Marks the field a problem names (ExperimentFile::locate), or clears every mark.
  void markProblem(int axis, const QString& field, const QString& message);
  void clearProblem();
  // While the queue runs the experiment is not edited (its trials would no longer match).
  void setEditable(bool editable);

  QTableWidget* table() const { return table_; }
  QComboBox* searchKind() const { return kind_; }
  QSpinBox* trialsBox() const { return trials_; }
  QLineEdit* rungsEdit() const { return rungs_; }
  QLineEdit* seedsEdit() const { return seeds_; }
  QSpinBox* slotsBox() const { return slots_; }
  QToolButton* addButton() const { return add_; }
  QToolButton* removeButton() const { return remove_; }

 signals:
  void edited();

 private:
  void fillRow(int row, const AxisRow& axis);
  void updateRowFlags(int row);
  void updateSearchFields();
  void kindChanged(int row);
  engine::AxisKind kindOf(int row) const;
  QString cellText(int row, int column) const;
  void emitEdited();

  QTableWidget* table_ = nullptr;
  QToolButton* add_ = nullptr;
  QToolButton* remove_ = nullptr;
  QComboBox* kind_ = nullptr;
  QSpinBox* trials_ = nullptr;
  QLineEdit* rungs_ = nullptr;
  QLineEdit* seeds_ = nullptr;
  QSpinBox* slots_ = nullptr;
  QTimer* typing_ = nullptr;
  bool filling_ = false;
  bool editable_ = true;
};

}  // namespace mrnn::widgets
