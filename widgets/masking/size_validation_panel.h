#pragma once

#include <QByteArray>
#include <QWidget>

#include <vector>

#include "engine/store/run_store.h"

class QLabel;
class QTableWidget;
class QToolButton;

namespace mrnn::widgets {

class ExportBar;
class ProjectDocument;
class SizeValidationPlot;

// Parameters against validation over the project's runs (Krause et al., Fig. 2): which model
// type makes the best use of its parameters. Reads runs.sqlite (quick, on the GUI thread);
// runs without a validation result are left out and counted in a note. A table lists the
// plotted runs; the figure and the numbers (CSV) can be saved.
class SizeValidationPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SizeValidationPanel(ProjectDocument& document, QWidget* parent = nullptr);

  // Shows `runs` (as the database lists them) without reading the database.
  void showRuns(const std::vector<engine::RunRecord>& runs);
  // The runs plotted (with a best validation loss), in id order.
  const std::vector<engine::RunRecord>& plottedRuns() const;
  // Runs left out for want of a validation result.
  int runsWithoutValidation() const { return withoutValidation_; }
  // run_id,name,model_type,parameters,best_valid_bits: one row per plotted run.
  QByteArray csv() const;

  SizeValidationPlot* plot() const { return plot_; }
  QTableWidget* table() const { return table_; }
  // Why runs are missing, or why there are none (an unreadable database in words).
  QLabel* noteLabel() const { return note_; }
  // The run under the mouse, in words.
  QLabel* readoutLabel() const { return readout_; }
  QToolButton* refreshButton() const { return refresh_; }
  ExportBar* exportBar() const { return export_; }

 public slots:
  // Re-reads the project's runs.
  void refresh();
  // The same, under the name the other analysis views use after training.
  void refreshCheckpoints() { refresh(); }

 private:
  void fillTable();
  void showHovered(int index);

  ProjectDocument& document_;
  SizeValidationPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* note_ = nullptr;
  QLabel* readout_ = nullptr;
  QToolButton* refresh_ = nullptr;
  ExportBar* export_ = nullptr;
  int withoutValidation_ = 0;
};

}  // namespace mrnn::widgets
