#include "widgets/gates/gate_statistics_table.h"

#include <QHeaderView>
#include <QStringList>

#include <cmath>

namespace mrnn::widgets {

namespace {

enum class Measure { Mean, Variance, Saturated };

const QString kDash = QStringLiteral("\u2014");

// Three decimals, as the paper reports them; values too small for that keep two digits.
QString number(double value) {
  if (value != 0.0 && std::abs(value) < 0.0005) return QString::number(value, 'e', 2);
  return QString::number(value, 'f', 3);
}

QString difference(double value) {
  if (value != 0.0 && std::abs(value) < 0.0005) {
    return (value > 0 ? QStringLiteral("+") : QString()) + QString::number(value, 'e', 2);
  }
  return QString::asprintf("%+.3f", value);
}

double measureOf(const engine::GateStatistics& stats, Measure measure) {
  switch (measure) {
    case Measure::Mean:
      return stats.mean;
    case Measure::Variance:
      return stats.variance;
    case Measure::Saturated:
      return stats.saturatedFraction;
  }
  return 0.0;
}

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n'))) {
    return text;
  }
  QString quoted = text;
  quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QTableWidgetItem* cell(const QString& text, bool numeric, const QString& tip = QString()) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (numeric) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  if (!tip.isEmpty()) item->setToolTip(tip);
  return item;
}

}  // namespace

GateStatisticsTable::GateStatisticsTable(QWidget* parent) : QTableWidget(parent) {
  setObjectName(QStringLiteral("gateStatisticsTable"));
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setSelectionMode(QAbstractItemView::SingleSelection);
  setAlternatingRowColors(true);
  verticalHeader()->setVisible(false);
  horizontalHeader()->setStretchLastSection(false);
  setToolTip(
      tr("Mean, variance and saturation of every probe over all steps and units of the "
         "text (Melis et al. §4.4). Click a row to show that probe."));
  clearReports();
}

void GateStatisticsTable::setReports(const engine::GateReport& a, const engine::GateReport* b,
                                     const QString& labelA, const QString& labelB) {
  rows_.clear();
  comparing_ = b != nullptr;
  labelA_ = labelA;
  labelB_ = labelB;
  auto add = [this](const engine::GateReport& report, bool isB) {
    for (size_t i = 0; i < report.statistics.size(); ++i) {
      const engine::GateStatistics& stats = report.statistics[i];
      const QString name = QString::fromStdString(stats.name);
      Row* row = nullptr;
      for (Row& existing : rows_) {
        if (existing.name == name) row = &existing;
      }
      if (!row) {
        rows_.push_back(Row{});
        row = &rows_.back();
        row->name = name;
        row->isGate = stats.isGate;
        if (i < report.traces.size()) {
          row->layer = report.traces[i].layer;
          row->probe = QString::fromStdString(report.traces[i].probe);
        } else {
          row->probe = name.section(QLatin1Char('/'), -1);
        }
      }
      (isB ? row->b : row->a) = stats;
    }
  };
  add(a, false);
  if (b) add(*b, true);
  fill();
}

void GateStatisticsTable::clearReports() {
  rows_.clear();
  comparing_ = false;
  fill();
}

void GateStatisticsTable::fill() {
  clear();
  QStringList headers{tr("Probe"), tr("Gate")};
  const QList<std::pair<Measure, QString>> measures{{Measure::Mean, tr("Mean")},
                                                    {Measure::Variance, tr("Variance")},
                                                    {Measure::Saturated, tr("Saturated")}};
  for (const auto& [measure, title] : measures) {
    if (comparing_) {
      headers << tr("%1 A").arg(title) << tr("%1 B").arg(title) << tr("\u0394 %1").arg(title);
    } else {
      headers << title;
    }
  }
  setColumnCount(static_cast<int>(headers.size()));
  setHorizontalHeaderLabels(headers);
  const QString saturatedTip = tr("Share of values below 0.1 or above 0.9");
  for (int c = 2; c < columnCount(); ++c) {
    QString tip = headers[c].contains(tr("Saturated")) ? saturatedTip : QString();
    if (comparing_) {
      const QString which = headers[c].endsWith(QLatin1String(" A"))   ? labelA_
                            : headers[c].endsWith(QLatin1String(" B")) ? labelB_
                                                                       : tr("B \u2212 A");
      tip = tip.isEmpty() ? which : tip + QStringLiteral(" · ") + which;
    }
    horizontalHeaderItem(c)->setToolTip(tip);
  }

  setRowCount(static_cast<int>(rows_.size()));
  const QString notGate = tr("Saturation is only meaningful for gates, whose values lie in [0, 1]");
  for (int r = 0; r < rowCount(); ++r) {
    const Row& row = rows_[static_cast<size_t>(r)];
    QString counts;
    if (row.a) counts += tr("A: %1 values").arg(row.a->count);
    if (row.b)
      counts += (counts.isEmpty() ? QString() : QStringLiteral(" · ")) +
                tr("B: %1 values").arg(row.b->count);
    setItem(r, 0, cell(row.name, false, counts));
    setItem(r, 1, cell(row.isGate ? tr("yes") : tr("no"), false));
    int column = 2;
    for (const auto& [measure, title] : measures) {
      const bool shown = measure != Measure::Saturated || row.isGate;
      auto text = [&](const std::optional<engine::GateStatistics>& stats) {
        if (!stats) return QString();
        return shown ? number(measureOf(*stats, measure)) : kDash;
      };
      const QString tip = shown ? QString() : notGate;
      setItem(r, column++, cell(text(row.a), true, tip));
      if (!comparing_) continue;
      setItem(r, column++, cell(text(row.b), true, tip));
      const QString delta =
          row.a && row.b
              ? (shown ? difference(measureOf(*row.b, measure) - measureOf(*row.a, measure))
                       : kDash)
              : QString();
      setItem(r, column++, cell(delta, true, tip));
    }
  }
  resizeColumnsToContents();
}

int GateStatisticsTable::rowOf(const QString& name) const {
  for (size_t r = 0; r < rows_.size(); ++r) {
    if (rows_[r].name == name) return static_cast<int>(r);
  }
  return -1;
}

QString GateStatisticsTable::probeName(int row) const {
  if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return QString();
  return rows_[static_cast<size_t>(row)].name;
}

QByteArray GateStatisticsTable::csv() const {
  QString out =
      QStringLiteral("model,name,layer,probe,is_gate,mean,variance,saturated_fraction,count\n");
  for (const bool isB : {false, true}) {
    if (isB && !comparing_) break;
    const QString model = isB ? labelB_ : labelA_;
    for (const Row& row : rows_) {
      const auto& stats = isB ? row.b : row.a;
      if (!stats) continue;
      out +=
          QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
              .arg(csvField(model), csvField(row.name))
              .arg(row.layer)
              .arg(csvField(row.probe))
              .arg(row.isGate ? 1 : 0)
              .arg(QString::number(stats->mean, 'g', 10), QString::number(stats->variance, 'g', 10),
                   QString::number(stats->saturatedFraction, 'g', 10))
              .arg(stats->count);
    }
  }
  return out.toUtf8();
}

}  // namespace mrnn::widgets
