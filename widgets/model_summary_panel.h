#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QStackedWidget;
class QTableWidget;

namespace mrnn::engine {
struct Project;
}

namespace mrnn::widgets {

// A project's model at a glance: name and description, then one table row per block
// (input, each layer, output) with its widths and parameter count, and a bold total.
// When there is nothing to tabulate (a load error, an unknown vocabulary) a message
// takes the table's place.
class ModelSummaryPanel : public QWidget {
  Q_OBJECT

 public:
  enum Column { Block, Type, Detail, In, Out, Parameters, ColumnCount };

  explicit ModelSummaryPanel(QWidget* parent = nullptr);

  void showProject(const engine::Project& project);
  // Replaces the table with `message` (for example a ConfigError's what()).
  void showError(const QString& message);

  // Rows in the table, the total row included; 0 while a message is shown.
  int rowCount() const;
  // The model's total; 0 when unknown.
  qint64 totalParameters() const { return totalParameters_; }
  // The message shown instead of the table; empty while the table is shown.
  QString message() const;
  QTableWidget* table() const { return table_; }

 private:
  void showMessage(const QString& message, bool isError);
  void fillTable(const engine::Project& project, qint64 vocab);

  QLabel* title_ = nullptr;
  QLabel* description_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* message_ = nullptr;
  qint64 totalParameters_ = 0;
};

}  // namespace mrnn::widgets
