#pragma once

#include <QByteArray>
#include <QString>
#include <QTableWidget>
#include <optional>
#include <vector>

#include "engine/probing/gate_report.h"

namespace mrnn::widgets {

// Melis et al. §4.4's figures for every probe of the analysed text: mean, variance and (for
// gates) the fraction of values below 0.1 or above 0.9, one row per probe
// (GateReport::statistics). With a second model the columns pair A and B with B − A beside
// them; probes only one model has leave the other's cells empty.
class GateStatisticsTable : public QTableWidget {
  Q_OBJECT

 public:
  explicit GateStatisticsTable(QWidget* parent = nullptr);

  // `b` may be null (one model).
  void setReports(const engine::GateReport& a, const engine::GateReport* b, const QString& labelA,
                  const QString& labelB);
  void clearReports();

  bool comparing() const { return comparing_; }
  // The row of a probe ("layer1/f"); -1 when absent.
  int rowOf(const QString& name) const;
  QString probeName(int row) const;
  // Long format, one row per model and probe:
  // model,name,layer,probe,is_gate,mean,variance,saturated_fraction,count.
  QByteArray csv() const;

 private:
  struct Row {
    QString name;
    int64_t layer = 0;
    QString probe;
    bool isGate = false;
    std::optional<engine::GateStatistics> a;
    std::optional<engine::GateStatistics> b;
  };

  void fill();

  std::vector<Row> rows_;
  bool comparing_ = false;
  QString labelA_;
  QString labelB_;
};

}  // namespace mrnn::widgets
