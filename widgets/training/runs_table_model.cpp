#include "widgets/training/runs_table_model.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/config/project_file.h"
#include "engine/store/imported_run.h"
#include "engine/store/text_format.h"
#include "widgets/display_format.h"

namespace mrnn::widgets {
namespace {

// Absent results sort after every present one in ascending order (the best first).
constexpr double kAbsent = std::numeric_limits<double>::infinity();

QString startedText(const std::string& iso) {
  const QDateTime when = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate);
  if (!when.isValid()) return QString::fromStdString(iso);
  return when.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

}  // namespace

RunsTableModel::RunsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

QString RunsTableModel::statusText(engine::RunStatus status) {
  switch (status) {
    case engine::RunStatus::Running:
      return tr("Running");
    case engine::RunStatus::Paused:
      return tr("Paused");
    case engine::RunStatus::Stopped:
      return tr("Stopped");
    case engine::RunStatus::Finished:
      return tr("Finished");
    case engine::RunStatus::Failed:
      return tr("Failed");
    case engine::RunStatus::Interrupted:
      return tr("Interrupted");
  }
  return QString();
}

QString RunsTableModel::importedText() {
  return tr("Imported");
}

double RunsTableModel::shownLoss(const Row& row, double bits) {
  return engine::inLossUnit(bits, row.unit);
}

RunsTableModel::Row RunsTableModel::makeRow(const engine::RunRecord& record) {
  Row row;
  row.record = record;
  if (record.configYaml.empty()) {
    row.configError = tr("the run stored no config");
    return row;
  }
  try {
    const engine::Project project =
        engine::parseProject(record.configYaml, "run " + std::to_string(record.id) + " config");
    row.configRead = true;
    row.optimizer =
        QString::fromStdString(engine::optimizerKindName(project.training.optimizer.kind));
    row.learningRate = engine::baseLearningRate(project.training.optimizer);
    row.hasLearningRate = engine::hasLearningRate(project.training.optimizer);
    row.batch = project.training.batchSize;
    row.bptt = project.training.bptt;
    QStringList sizes;
    for (const engine::LayerConfig& layer : project.model.layers) {
      sizes << QString::number(layer.hiddenSize);
    }
    row.hidden = sizes.join(QStringLiteral(", "));
    row.firstHidden = project.model.layers.empty() ? 0 : project.model.layers.front().hiddenSize;
    row.unit = engine::lossUnitOf(project);
  } catch (const std::exception& error) {
    // A config from an older or newer build: the run still lists, its settings do not.
    row.configError = QString::fromStdString(error.what());
  }
  return row;
}

void RunsTableModel::setRuns(const std::vector<engine::RunRecord>& runs) {
  bool sameRuns = static_cast<int>(runs.size()) == rows_.size();
  for (size_t i = 0; sameRuns && i < runs.size(); ++i) {
    sameRuns = runs[i].id == rows_[static_cast<int>(i)].record.id;
  }
  if (sameRuns) {
    for (size_t i = 0; i < runs.size(); ++i) {
      Row& row = rows_[static_cast<int>(i)];
      // The config never changes after a run starts: keep what was parsed.
      row.record = runs[i];
    }
    if (!rows_.isEmpty()) emit dataChanged(index(0, 0), index(rows_.size() - 1, ColumnCount - 1));
    return;
  }
  beginResetModel();
  rows_.clear();
  rows_.reserve(static_cast<int>(runs.size()));
  for (const engine::RunRecord& record : runs) rows_.append(makeRow(record));
  endResetModel();
}

int RunsTableModel::rowOfRun(qint64 runId) const {
  for (int i = 0; i < rows_.size(); ++i) {
    if (rows_[i].record.id == runId) return i;
  }
  return -1;
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : rows_.size();
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunsTableModel::display(const Row& row, int column) const {
  const engine::RunRecord& r = row.record;
  const QString unknown = row.configRead ? QString() : QStringLiteral("?");
  // An imported run was trained elsewhere: the project's training settings are not its own.
  const bool imported = engine::isImportedRun(r);
  if (imported &&
      (column == Optimizer || column == LearningRate || column == Batch || column == Bptt)) {
    return QStringLiteral("-");
  }
  switch (column) {
    case Id:
      return QString::number(r.id);
    case Name:
      return QString::fromStdString(r.name);
    case Model:
      return QString::fromStdString(r.modelType);
    case Parameters:
      return formatCount(r.parameters);
    case Optimizer:
      return row.configRead ? row.optimizer : unknown;
    case LearningRate:
      if (!row.configRead) return unknown;
      return row.hasLearningRate ? formatValue(row.learningRate) : QStringLiteral("—");
    case Batch:
      return row.configRead ? QString::number(row.batch) : unknown;
    case Bptt:
      return row.configRead ? QString::number(row.bptt) : unknown;
    case Hidden:
      return row.configRead ? row.hidden : unknown;
    case BestValid:
      return r.bestValid ? formatLoss(shownLoss(row, *r.bestValid)) : QStringLiteral("-");
    case Test:
      return r.testResult ? formatLoss(shownLoss(row, *r.testResult)) : QStringLiteral("-");
    case Steps:
      return formatCount(r.steps);
    case Duration:
      return formatDuration(r.durationSeconds);
    case Status:
      return imported ? importedText() : statusText(r.status);
    case Started:
      return startedText(r.startedAt);
    case Note:
      return QString::fromStdString(r.note);
  }
  return QVariant();
}

Qt::ItemFlags RunsTableModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags flags = QAbstractTableModel::flags(index);
  if (index.isValid() && (index.column() == Name || index.column() == Note)) {
    flags |= Qt::ItemIsEditable;
  }
  return flags;
}

bool RunsTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || !index.isValid() || index.row() >= rows_.size()) return false;
  if (index.column() != Name && index.column() != Note) return false;
  const QString text = value.toString().trimmed();
  const engine::RunRecord& r = rows_[index.row()].record;
  const QString now = QString::fromStdString(index.column() == Name ? r.name : r.note);
  if (text == now || (index.column() == Name && text.isEmpty())) return false;
  emit editRequested(r.id, index.column(), text);
  return true;
}

QVariant RunsTableModel::sortValue(const Row& row, int column) const {
  const engine::RunRecord& r = row.record;
  switch (column) {
    case Id:
      return static_cast<qlonglong>(r.id);
    case Parameters:
      return static_cast<qlonglong>(r.parameters);
    case LearningRate:
      return row.configRead && row.hasLearningRate ? row.learningRate : kAbsent;
    case Batch:
      return static_cast<qlonglong>(row.batch);
    case Bptt:
      return static_cast<qlonglong>(row.bptt);
    case Hidden:
      return static_cast<qlonglong>(row.firstHidden);
    case BestValid:
      return r.bestValid ? shownLoss(row, *r.bestValid) : kAbsent;
    case Test:
      return r.testResult ? shownLoss(row, *r.testResult) : kAbsent;
    case Steps:
      return static_cast<qlonglong>(r.steps);
    case Duration:
      return r.durationSeconds;
    case Started:
      return QString::fromStdString(r.startedAt);  // ISO 8601 sorts as text
    case Name:
      return QString::fromStdString(r.name).toLower();
    case Note:
      return QString::fromStdString(r.note).toLower();
    default:
      return display(row, column);
  }
}

QVariant RunsTableModel::toolTip(const Row& row, int column) const {
  const engine::RunRecord& r = row.record;
  switch (column) {
    case Status:
      if (engine::isImportedRun(r)) {
        return tr("Imported from %1: trained elsewhere, so it has no curves")
            .arg(QString::fromStdString(engine::importedRunSource(r)));
      }
      if (!r.reason.empty()) return QString::fromStdString(r.reason);
      return tr("%1 steps; ended %2")
          .arg(r.steps)
          .arg(r.endedAt.empty() ? tr("not yet") : startedText(r.endedAt));
    case BestValid:
      return row.unit == engine::LossUnit::SquaredError
                 ? tr("Best validation loss, mean squared error (a real-valued output)")
                 : tr("Best validation loss, bits per symbol");
    case Test:
      return row.unit == engine::LossUnit::SquaredError
                 ? tr("Test loss of the best checkpoint, mean squared error (a real-valued output)")
                 : tr("Test loss of the best checkpoint, bits per symbol");
    case Optimizer:
    case LearningRate:
    case Batch:
    case Bptt:
    case Hidden:
      if (!row.configRead) return tr("The run's config could not be read: %1").arg(row.configError);
      if (column == LearningRate && !row.hasLearningRate) {
        return tr("Hessian-free has no learning rate: its damping λ and CG set each step");
      }
      return QVariant();
    case Started:
      return QString::fromStdString(r.startedAt);
    case Name:
      return tr("%1\nDouble-click to rename the run").arg(QString::fromStdString(r.name));
    case Note:
      return r.note.empty() ? tr("Double-click to write a note on the run")
                            : QString::fromStdString(r.note);
    default:
      return QVariant();
  }
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return QVariant();
  const Row& row = rows_[index.row()];
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole:
      return display(row, column);
    case SortRole:
      return sortValue(row, column);
    case RunIdRole:
      return static_cast<qlonglong>(row.record.id);
    case Qt::ToolTipRole:
      return toolTip(row, column);
    case Qt::TextAlignmentRole:
      switch (column) {
        case Id:
        case Parameters:
        case LearningRate:
        case Batch:
        case Bptt:
        case BestValid:
        case Test:
        case Steps:
        case Duration:
          return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
        default:
          return static_cast<int>(Qt::AlignLeft | Qt::AlignVCenter);
      }
    case Qt::ForegroundRole:
      if (column != Status) return QVariant();
      if (engine::isImportedRun(row.record)) return QBrush(QColor(0x00, 0x69, 0x5c));
      switch (row.record.status) {
        case engine::RunStatus::Failed:
          return QBrush(QColor(0xc6, 0x28, 0x28));
        case engine::RunStatus::Running:
          return QBrush(QColor(0x15, 0x65, 0xc0));
        case engine::RunStatus::Finished:
          return QBrush(QColor(0x2e, 0x7d, 0x32));
        case engine::RunStatus::Interrupted:
          return QBrush(QColor(0xb2, 0x6a, 0x00));
        default:
          return QVariant();
      }
    default:
      return QVariant();
  }
}

std::string RunsTableModel::toCsv() const {
  std::string out =
      "id,name,model_type,parameters,optimizer,learning_rate,batch_size,bptt,hidden_sizes,"
      "best_valid_bits_per_symbol,test_bits_per_symbol,steps,duration_s,status,started_at,"
      "reason,note\n";
  for (const Row& row : rows_) {
    const engine::RunRecord& r = row.record;
    const auto config = [&](const std::string& value) {
      return row.configRead ? engine::csvField(value) : std::string();
    };
    out += std::to_string(r.id) + "," + engine::csvField(r.name) + "," +
           engine::csvField(r.modelType) + "," + std::to_string(r.parameters) + "," +
           config(row.optimizer.toStdString()) + "," +
           config(row.hasLearningRate ? engine::formatDouble(row.learningRate) : "") + "," +
           config(std::to_string(row.batch)) + "," + config(std::to_string(row.bptt)) + "," +
           config(row.hidden.toStdString()) + "," + engine::csvNumber(r.bestValid) + "," +
           engine::csvNumber(r.testResult) + "," + std::to_string(r.steps) + "," +
           engine::formatDouble(r.durationSeconds) + "," + engine::runStatusName(r.status) + "," +
           engine::csvField(r.startedAt) + "," + engine::csvField(r.reason) + "," +
           engine::csvField(r.note) + "\n";
  }
  return out;
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return QVariant();
  if (role == Qt::DisplayRole) {
    static const QStringList names = {tr("Id"),
                                      tr("Name"),
                                      tr("Model"),
                                      tr("Parameters"),
                                      tr("Optimizer"),
                                      tr("LR"),
                                      tr("Batch"),
                                      tr("BPTT"),
                                      tr("Hidden"),
                                      tr("Best valid, bits/sym"),
                                      tr("Test, bits/sym"),
                                      tr("Steps"),
                                      tr("Duration"),
                                      tr("Status"),
                                      tr("Started"),
                                      tr("Note")};
    // Runs that all train a real-valued output: their figures are squared errors (shownLoss).
    const bool squaredErrors =
        !rows_.isEmpty() && std::all_of(rows_.cbegin(), rows_.cend(), [](const Row& row) {
          return row.unit == engine::LossUnit::SquaredError;
        });
    if (squaredErrors && section == BestValid) return tr("Best valid, sq. error");
    if (squaredErrors && section == Test) return tr("Test, sq. error");
    return section >= 0 && section < names.size() ? names[section] : QVariant();
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case LearningRate:
        return tr("Learning rate the schedule starts from (rmsprop_normalized: update length)");
      case Batch:
        return tr("Parallel streams per step (training.batch_size)");
      case Bptt:
        return tr("Window length of truncated backpropagation (training.bptt)");
      case Hidden:
        return tr("Hidden size of each layer, input to output");
      case BestValid:
        return tr("Best validation loss in bits per symbol; sort ascending for the best run");
      case Test:
        return tr("Test loss in bits per symbol (after a run finishes, or Evaluate)");
      case Steps:
        return tr("Optimisation steps taken (resumes included)");
      case Duration:
        return tr("Training time (h:mm:ss), resumes included");
      default:
        return QVariant();
    }
  }
  return QVariant();
}

}  // namespace mrnn::widgets
