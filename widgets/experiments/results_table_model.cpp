#include "widgets/experiments/results_table_model.h"

#include <QColor>

#include <algorithm>
#include <limits>

#include "engine/experiment/welch_test.h"
#include "widgets/display_format.h"

namespace mrnn::widgets {
namespace {

// Configurations without a figure sort after every measured one.
constexpr double kMissing = std::numeric_limits<double>::max();

QString metricName(const std::string& metric) {
  QString name = QString::fromStdString(metric);
  name.replace(QLatin1Char('_'), QLatin1Char(' '));
  return name;
}

}  // namespace

ResultsTableModel::ResultsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultsTableModel::setResults(const QStringList& axes, const QStringList& keys,
                                   const std::vector<engine::ConfigurationResult>& rows) {
  beginResetModel();
  axes_ = axes;
  keys_ = keys;
  rows_ = rows;
  units_ = engine::lossUnitsOf(rows_);
  unitsMix_ = engine::lossUnitsMix(units_);
  sequences_ = engine::anyScoresSequences(rows_);
  endResetModel();
}

int ResultsTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ResultsTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : stateColumn() + 1;
}

QString ResultsTableModel::meanStd(const engine::SeedSummary& summary) {
  if (summary.count == 0) return QStringLiteral("-");
  QString text = formatLoss(summary.mean);
  if (summary.count > 1) text += QStringLiteral(" ± ") + formatLoss(summary.stddev);
  return text;
}

QString ResultsTableModel::referencesText(const engine::ConfigurationResult& result) {
  QStringList parts;
  for (const engine::ReferenceFigure& reference : result.references) {
    parts.append(QStringLiteral("%1 %2 (%3)")
                     .arg(metricName(reference.metric))
                     .arg(reference.value, 0, 'g', 6)
                     .arg(QString::fromStdString(reference.source)));
  }
  return parts.join(QStringLiteral("; "));
}

QVariant ResultsTableModel::display(const engine::ConfigurationResult& row, int column) const {
  if (column == 0) return static_cast<qlonglong>(row.configuration + 1);
  if (column <= axisCount()) {
    const size_t axis = static_cast<size_t>(column - 1);
    return axis < row.settings.size() ? QString::fromStdString(row.settings[axis].shown)
                                      : QString();
  }
  if (column == parametersColumn()) return formatCount(row.parameters);
  if (column == seedsColumn()) return QStringLiteral("%1/%2").arg(row.done).arg(row.seeds);
  if (column == validColumn() || column == testColumn()) {
    // Where units mix, each figure names its own (the header then names none).
    const QString figure = meanStd(column == validColumn() ? row.validLoss : row.testLoss);
    return QString::fromStdString(engine::lossCellText(figure.toStdString(), row.unit, unitsMix_));
  }
  if (column == errorRateColumn()) {
    return QString::fromStdString(engine::percentMeanStd(row.testErrorRate));
  }
  if (column == solvedColumn()) return QString::fromStdString(engine::solvedText(row));
  if (column == referenceColumn()) {
    const QString text = referencesText(row);
    return text.isEmpty() ? QStringLiteral("-") : text;
  }
  return QString::fromStdString(row.state);
}

QVariant ResultsTableModel::sortValue(const engine::ConfigurationResult& row, int column) const {
  if (column == 0) return static_cast<qlonglong>(row.configuration);
  if (column <= axisCount()) {
    const size_t axis = static_cast<size_t>(column - 1);
    if (axis >= row.settings.size()) return QString();
    bool number = false;
    const double value = QString::fromStdString(row.settings[axis].value).toDouble(&number);
    if (number) return value;
    return QString::fromStdString(row.settings[axis].shown);
  }
  if (column == parametersColumn()) return static_cast<qlonglong>(row.parameters);
  if (column == seedsColumn()) return static_cast<qlonglong>(row.done);
  if (column == validColumn()) return row.validLoss.count > 0 ? row.validLoss.mean : kMissing;
  if (column == testColumn()) return row.testLoss.count > 0 ? row.testLoss.mean : kMissing;
  if (column == errorRateColumn()) {
    return row.testErrorRate.count > 0 ? row.testErrorRate.mean : kMissing;
  }
  // The share solved, so that 2/2 sorts above 2/3.
  if (column == solvedColumn()) {
    return row.testErrorRate.count > 0
               ? static_cast<double>(row.solved) / static_cast<double>(row.testErrorRate.count)
               : -1.0;
  }
  if (column == referenceColumn()) {
    return row.references.empty() ? kMissing : row.references.front().value;
  }
  return QString::fromStdString(row.state);
}

QString ResultsTableModel::seedsText(const engine::SeedSummary& summary) {
  QString text = tr("Bits per symbol over the seeds done: n = %1").arg(summary.count);
  if (summary.count == 0) return text;
  const auto [low, high] = std::minmax_element(summary.values.begin(), summary.values.end());
  text += tr(", mean %1").arg(summary.mean, 0, 'f', 4);
  if (summary.count > 1) {
    text += tr(", std %1, min %2, max %3")
                .arg(summary.stddev, 0, 'f', 4)
                .arg(*low, 0, 'f', 4)
                .arg(*high, 0, 'f', 4);
  }
  QStringList seeds;
  for (const double value : summary.values) seeds << QString::number(value, 'f', 4);
  return text + tr("\nEach seed: %1").arg(seeds.join(QStringLiteral(", ")));
}

QString ResultsTableModel::errorRatesText(const engine::ConfigurationResult& row) {
  const engine::SeedSummary& rates = row.testErrorRate;
  if (rates.count == 0) return tr("Share of the test sequences wrong: no seed done yet");
  QStringList seeds;
  for (const double value : rates.values) seeds << QString::number(100.0 * value, 'f', 1) + '%';
  return tr("Share of the test sequences wrong, each seed: %1\nSolved (below 1% wrong): %2 of "
            "%3 seeds")
      .arg(seeds.join(QStringLiteral(", ")))
      .arg(row.solved)
      .arg(rates.count);
}

QString ResultsTableModel::comparisonText(const engine::ConfigurationResult& a,
                                          const engine::ConfigurationResult& b,
                                          const std::string& metric) {
  const auto x = engine::measuredFigure(a, metric);
  const auto y = engine::measuredFigure(b, metric);
  const QString names = tr("#%1 against #%2").arg(a.configuration + 1).arg(b.configuration + 1);
  if (!x || !y) return tr("%1: not both measured yet").arg(names);
  const auto test = engine::welchTest(x->values, y->values);
  if (!test) {
    return tr("%1: %2 against %3 (Welch's t-test needs two seeds or more of each, with some "
              "spread)")
        .arg(names)
        .arg(x->mean, 0, 'f', 4)
        .arg(y->mean, 0, 'f', 4);
  }
  return tr("%1: difference %2, Welch's t = %3 on %4 degrees of freedom, p = %5")
      .arg(names)
      .arg(x->mean - y->mean, 0, 'f', 4)
      .arg(test->t, 0, 'f', 2)
      .arg(test->degreesOfFreedom, 0, 'f', 1)
      .arg(test->p < 1e-4 ? QStringLiteral("%1").arg(test->p, 0, 'e', 1)
                          : QString::number(test->p, 'f', 4));
}

QVariant ResultsTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const engine::ConfigurationResult& row = rows_[static_cast<size_t>(index.row())];
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole:
      return display(row, column);
    case SortRole:
      return sortValue(row, column);
    case RunIdsRole: {
      QVariantList ids;
      for (const int64_t id : row.runIds) ids.append(static_cast<qlonglong>(id));
      return ids;
    }
    case ConfigurationRole:
      return static_cast<qlonglong>(row.configuration);
    case MeanRole:
      if (column == validColumn() && row.validLoss.count > 0) return row.validLoss.mean;
      if (column == testColumn() && row.testLoss.count > 0) return row.testLoss.mean;
      return {};
    case Qt::TextAlignmentRole:
      if (column == 0 || column == parametersColumn() || column == seedsColumn() ||
          column == validColumn() || column == testColumn() || column == errorRateColumn() ||
          column == solvedColumn()) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      }
      return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (column == referenceColumn()) return QColor(0x55, 0x55, 0x55);
      if (column == stateColumn() && row.state.rfind("failed", 0) == 0) {
        return QColor(0xc6, 0x27, 0x28);
      }
      return {};
    case Qt::ToolTipRole: {
      if (column == referenceColumn() && !row.references.empty()) {
        QStringList lines;
        for (const engine::ReferenceFigure& reference : row.references) {
          const auto measured = engine::measuredFigure(row, reference.metric);
          lines.append(tr("%1: published %2 (%3), measured %4")
                           .arg(metricName(reference.metric))
                           .arg(reference.value, 0, 'g', 6)
                           .arg(QString::fromStdString(reference.source),
                                measured ? meanStd(*measured) : tr("not yet")));
        }
        return lines.join(QLatin1Char('\n'));
      }
      if (column == validColumn() || column == testColumn()) {
        return seedsText(column == validColumn() ? row.validLoss : row.testLoss);
      }
      if (column == errorRateColumn() || column == solvedColumn()) return errorRatesText(row);
      if (column == stateColumn() || (column >= 1 && column <= axisCount())) {
        return display(row, column);
      }
      return {};
    }
    default:
      return {};
  }
}

QVariant ResultsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    if (section >= 1 && section <= axisCount()) return keys_.value(section - 1);
    if (section == seedsColumn()) return tr("Seeds done, of the seeds planned");
    if (section == referenceColumn()) return tr("Published figures the experiment file cites");
    if (section == errorRateColumn()) {
      return tr("The share of the test sequences got wrong, mean ± std over the seeds");
    }
    if (section == solvedColumn()) {
      return tr(
          "Seeds that solved the problem (below 1% of the test sequences wrong), of the "
          "seeds done");
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  if (section == 0) return QStringLiteral("#");
  if (section <= axisCount()) return axes_.value(section - 1);
  if (section == parametersColumn()) return tr("Parameters");
  if (section == seedsColumn()) return tr("Seeds");
  // "Valid bpc", "Valid sq. error" (a real-valued output's runs), "Valid" where they mix.
  if (section == validColumn() || section == testColumn()) {
    const QString name = section == validColumn() ? tr("Valid") : tr("Test");
    return QString::fromStdString(engine::lossColumnTitle(name.toStdString(), units_));
  }
  if (section == errorRateColumn()) return tr("Test wrong");
  if (section == solvedColumn()) return tr("Solved");
  if (section == referenceColumn()) return tr("Reference");
  if (section == stateColumn()) return tr("State");
  return {};
}

}  // namespace mrnn::widgets
