#include "widgets/experiments/trials_table.h"

#include <QHeaderView>

#include <algorithm>
#include <map>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "widgets/display_format.h"
#include "widgets/experiments/experiment_snapshot.h"

namespace mrnn::widgets {
namespace {

// Status colours: what needs a look (failed, interrupted) stands out; done reads as done.
QColor statusColour(const QString& status) {
  if (status == QLatin1String("running")) return QColor(0x1f, 0x5f, 0xb4);
  if (status == QLatin1String("done")) return QColor(0x2c, 0x80, 0x2c);
  if (status == QLatin1String("failed")) return QColor(0xc6, 0x27, 0x28);
  if (status == QLatin1String("interrupted")) return QColor(0xb3, 0x5f, 0x00);
  return QColor(0x66, 0x66, 0x66);
}

}  // namespace

TrialsTable::TrialsTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent) {
  setObjectName(QStringLiteral("experimentTrials"));
  setHorizontalHeaderLabels({tr("Trial"), tr("Setting"), tr("Seed"), tr("Parameters"), tr("Status"),
                             tr("Step"), tr("ETA"), tr("Valid bpc"), tr("Note")});
  horizontalHeaderItem(ValidColumn)->setToolTip(tr("Best validation loss so far, bits per symbol"));
  horizontalHeaderItem(StepColumn)->setToolTip(tr("Steps trained, of the trial's target"));
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  setWordWrap(false);
  verticalHeader()->setVisible(false);
  verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  // Numbers fit their contents; the setting is sized to its text when a plan comes (it can
  // be long: capped, with the whole text in its tooltip); the note takes what is left.
  horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  horizontalHeader()->setSectionResizeMode(SettingColumn, QHeaderView::Interactive);
  horizontalHeader()->setSectionResizeMode(NoteColumn, QHeaderView::Interactive);
  horizontalHeader()->setStretchLastSection(true);
  horizontalHeader()->setMinimumSectionSize(40);
}

void TrialsTable::setText(int row, int column, const QString& text, const QString& tip) {
  QTableWidgetItem* cell = item(row, column);
  if (cell == nullptr) {
    cell = new QTableWidgetItem;
    if (column == SeedColumn || column == ParametersColumn || column == StepColumn ||
        column == EtaColumn || column == ValidColumn || column == TrialColumn) {
      cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    setItem(row, column, cell);
  }
  if (cell->text() != text) cell->setText(text);
  cell->setToolTip(tip.isEmpty() ? (column == SettingColumn || column == NoteColumn ? text : tip)
                                 : tip);
}

void TrialsTable::setPlan(const engine::ExperimentPlan& plan) {
  setRowCount(static_cast<int>(plan.trials.size()));
  // The valid column in the trials' unit: bits, or a real-valued output's squared error.
  std::vector<engine::LossUnit> units;
  for (const engine::TrialPlan& trial : plan.trials)
    units.push_back(engine::lossUnitOf(trial.project));
  unitsMix_ = engine::lossUnitsMix(units);
  horizontalHeaderItem(ValidColumn)
      ->setText(QString::fromStdString(engine::lossColumnTitle(tr("Valid").toStdString(), units)));
  horizontalHeaderItem(ValidColumn)
      ->setToolTip(engine::allSquaredErrors(units)
                       ? tr("Best validation loss so far, mean squared error")
                       : tr("Best validation loss so far, bits per symbol"));
  for (const engine::TrialPlan& trial : plan.trials) {
    const int row = static_cast<int>(trial.index);
    setText(row, TrialColumn, QStringLiteral("#%1").arg(trial.index + 1));
    item(row, TrialColumn)->setData(RunIdRole, 0);
    setText(row, SettingColumn, QString::fromStdString(trial.label));
    setText(row, SeedColumn, QString::number(trial.seed));
    setText(row, ParametersColumn,
            trial.parameters > 0 ? formatCount(trial.parameters) : QStringLiteral("?"),
            trial.parameters > 0 ? QString()
                                 : tr("Unknown until the vocabulary is (give the project data)"));
    setText(row, StatusColumn, tr("not queued"),
            tr("Launch queues the trials; each trains as a run of the project"));
    item(row, StatusColumn)->setForeground(statusColour(QString()));
    const int64_t steps = trial.project.training.maxSteps;
    setText(row, StepColumn,
            steps > 0 ? QStringLiteral("0/%1").arg(steps)
                      : tr("%1 epochs").arg(trial.project.training.epochs));
    setText(row, EtaColumn, QStringLiteral("-"));
    setText(row, ValidColumn, QStringLiteral("-"));
    setText(row, NoteColumn, QString());
  }
  resizeColumnToContents(SettingColumn);
  setColumnWidth(SettingColumn, std::min(columnWidth(SettingColumn),
                                         fontMetrics().horizontalAdvance(QLatin1Char('x')) * 44));
}

void TrialsTable::setProgress(const ExperimentSnapshot& snapshot) {
  for (size_t i = 0; i < snapshot.progress.size(); ++i) {
    const engine::TrialProgress& progress = snapshot.progress[i];
    const int row = static_cast<int>(progress.trial.trial);
    if (row < 0 || row >= rowCount()) continue;
    const bool current = snapshot.current[i];
    const QString status = QString::fromStdString(progress.statusText());
    QString note = QString::fromStdString(progress.trial.reason);
    if (!current) {
      note = tr("ran with an earlier version of this experiment (run %1); Launch plans afresh")
                 .arg(progress.trial.runId);
    } else if (progress.interrupted) {
      note = tr("no process trains it now; Launch resumes it from its checkpoint");
    } else if (progress.statusText() == "stopped" && note.isEmpty()) {
      note = tr("stopped at step %1; Launch goes on from its checkpoint").arg(progress.run->steps);
    } else if (progress.starting) {
      note = tr("its process is starting");
    } else if (progress.finishing) {
      note = tr("the final validation and test");
    } else if (progress.trial.status == engine::TrialStatus::Running && snapshot.paused) {
      note = tr("paused");
    }
    const qint64 runId = current ? progress.trial.runId : 0;
    item(row, TrialColumn)->setData(RunIdRole, runId);
    item(row, TrialColumn)->setToolTip(runId > 0 ? tr("Run %1").arg(runId) : QString());
    setText(row, StatusColumn, current ? status : tr("changed"));
    item(row, StatusColumn)->setForeground(statusColour(current ? status : QString()));
    const auto& run = progress.run;
    QString step = QStringLiteral("-");
    if (current && run) {
      step = progress.targetSteps > 0
                 ? QStringLiteral("%1/%2").arg(run->steps).arg(progress.targetSteps)
                 : QString::number(run->steps);
    } else if (current && progress.targetSteps > 0) {
      step = QStringLiteral("0/%1").arg(progress.targetSteps);
    }
    setText(row, StepColumn, step);
    setText(row, EtaColumn,
            !current              ? QStringLiteral("-")
            : progress.etaSeconds ? formatEta(*progress.etaSeconds)
            : progress.finishing  ? tr("validating")
                                  : QStringLiteral("-"));
    QString valid = QStringLiteral("-");
    if (current && run && run->bestValid) {
      valid = QString::fromStdString(engine::lossCellText(
          formatLoss(engine::inLossUnit(*run->bestValid, progress.unit)).toStdString(),
          progress.unit, unitsMix_));
    }
    setText(row, ValidColumn, valid);
    setText(row, NoteColumn, note);
  }
}

QList<qint64> TrialsTable::selectedRunIds() const {
  QList<qint64> ids;
  std::map<int, qint64> byRow;
  for (const QModelIndex& index : selectionModel()->selectedRows(TrialColumn)) {
    const qint64 id = index.data(RunIdRole).toLongLong();
    if (id > 0) byRow[index.row()] = id;
  }
  for (const auto& [row, id] : byRow) {
    if (!ids.contains(id)) ids.append(id);
  }
  return ids;
}

}  // namespace mrnn::widgets
