#pragma once

#include <QList>
#include <QTableWidget>

namespace mrnn::engine {
struct ExperimentPlan;
}

namespace mrnn::widgets {

struct ExperimentSnapshot;

// The experiment's trials, one row each: the plan (setting, seed, parameter count, steps) as
// soon as the axes are edited, and once the queue ran, each trial's status, step of its target,
// ETA, best validation and why it failed or was cut.
class TrialsTable : public QTableWidget {
  Q_OBJECT

 public:
  enum Column {
    TrialColumn,
    SettingColumn,
    SeedColumn,
    ParametersColumn,
    StatusColumn,
    StepColumn,
    EtaColumn,
    ValidColumn,
    NoteColumn,
    ColumnCount
  };
  // The run a row's trial trained (0: none yet), on its TrialColumn item.
  static constexpr int RunIdRole = Qt::UserRole + 1;

  explicit TrialsTable(QWidget* parent = nullptr);

  // One row per planned trial, every status "not queued" until setProgress().
  void setPlan(const engine::ExperimentPlan& plan);
  void setProgress(const ExperimentSnapshot& snapshot);
  // The runs of the selected trials that have one, in row order.
  QList<qint64> selectedRunIds() const;

 private:
  void setText(int row, int column, const QString& text, const QString& tip = QString());

  bool unitsMix_ = false;  // trials in bits and in squared error: each figure names its unit
};

}  // namespace mrnn::widgets
