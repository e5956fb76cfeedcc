#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "widgets/experiments/experiment_file.h"

class QTableWidget;
class QToolButton;

namespace mrnn::widgets {

// The `set:` block of an experiment as a two-column table (key path, value): fixed changes to
// the base project that every trial takes, such as a shorter training.max_steps for a quick
// sweep, without editing the project. Every committed change emits edited(); the panel checks,
// writes and re-plans, as for the axes. A setting the engine rejects is marked in red.
class FixedSettingsEditor : public QWidget {
  Q_OBJECT

 public:
  enum Column { KeyColumn, ValueColumn, ColumnCount };

  explicit FixedSettingsEditor(QWidget* parent = nullptr);

  // Shows the rows without emitting edited().
  void setRows(const std::vector<FixedSetting>& rows);
  std::vector<FixedSetting> rows() const;

  // Edits a cell as a user would, then emits edited() (for tests and scripts).
  void setCell(int row, Column column, const QString& text);
  // A new empty row, its key cell open for typing (nothing is written until it has a key).
  void addSetting();
  void removeSetting(int row);

  // Marks the row whose key is `key` (or every mark goes).
  void markProblem(const QString& key, const QString& message);
  void clearProblem();
  // Whether row `row` is marked.
  bool isMarked(int row) const;
  void setEditable(bool editable);

  QTableWidget* table() const { return table_; }
  QToolButton* addButton() const { return add_; }
  QToolButton* removeButton() const { return remove_; }

 signals:
  void edited();

 private:
  void fillRow(int row, const FixedSetting& setting);

  QTableWidget* table_ = nullptr;
  QToolButton* add_ = nullptr;
  QToolButton* remove_ = nullptr;
  bool filling_ = false;
  bool editable_ = true;
};

}  // namespace mrnn::widgets
