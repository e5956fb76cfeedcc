#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"

namespace mrnn::widgets {

// The experiment's results, one row per configuration (its trials over seeds): the axis
// values, parameters, seeds done, validation and test bits per symbol as mean ± standard
// deviation over seeds (for a long-range problem, then the share of test sequences wrong and
// the seeds that solved it), the published reference beside them and the state. Display text is
// formatted; SortRole gives numbers, so a QSortFilterProxyModel sorts by value.
class ResultsTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int SortRole = Qt::UserRole + 1;
  // On every cell: the configuration's runs (QVariantList of qint64) and its index.
  static constexpr int RunIdsRole = Qt::UserRole + 2;
  static constexpr int ConfigurationRole = Qt::UserRole + 3;
  // On the valid and test cells: the mean as a double (invalid when there is none).
  static constexpr int MeanRole = Qt::UserRole + 4;

  explicit ResultsTableModel(QObject* parent = nullptr);

  // `axes` names the axis columns (short labels; `keys` their key paths, for tooltips).
  void setResults(const QStringList& axes, const QStringList& keys,
                  const std::vector<engine::ConfigurationResult>& rows);
  const std::vector<engine::ConfigurationResult>& results() const { return rows_; }

  int axisCount() const { return static_cast<int>(axes_.size()); }
  int parametersColumn() const { return 1 + axisCount(); }
  int seedsColumn() const { return 2 + axisCount(); }
  int validColumn() const { return 3 + axisCount(); }
  int testColumn() const { return 4 + axisCount(); }
  // Only where some configuration is a long-range problem; -1 otherwise.
  int errorRateColumn() const { return sequences_ ? 5 + axisCount() : -1; }
  int solvedColumn() const { return sequences_ ? 6 + axisCount() : -1; }
  int referenceColumn() const { return (sequences_ ? 7 : 5) + axisCount(); }
  int stateColumn() const { return referenceColumn() + 1; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // "1.2345 ± 0.0123" (4 decimals; the spread only with more than one seed), "-" for none.
  static QString meanStd(const engine::SeedSummary& summary);
  // "n = 3, mean 1.2345, std 0.0123, min 1.2200, max 1.2500" and each seed's figure.
  static QString seedsText(const engine::SeedSummary& summary);
  // Each seed's share of test sequences wrong, in percent, and how many solved the problem.
  static QString errorRatesText(const engine::ConfigurationResult& row);
  // Two configurations compared on `metric` ("valid_bpc"): the difference of their means and
  // Welch's t-test over their seeds ("... p = 0.0080").
  static QString comparisonText(const engine::ConfigurationResult& a,
                                const engine::ConfigurationResult& b, const std::string& metric);
  // "test bpc 1.11 (Maupomé & Meurs, Table 1)" for each reference, joined by "; ".
  static QString referencesText(const engine::ConfigurationResult& result);

 private:
  QVariant display(const engine::ConfigurationResult& row, int column) const;
  QVariant sortValue(const engine::ConfigurationResult& row, int column) const;

  QStringList axes_;
  QStringList keys_;
  std::vector<engine::ConfigurationResult> rows_;
  std::vector<engine::LossUnit> units_;  // each row's, for the loss columns' unit
  bool unitsMix_ = false;                // bits and squared errors: each figure names its unit
  bool sequences_ = false;               // a long-range problem's: error rate, solved columns
};

}  // namespace mrnn::widgets
