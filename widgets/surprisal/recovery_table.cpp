#include "widgets/surprisal/recovery_table.h"

#include <QHeaderView>

#include <cmath>

#include "engine/scoring/surprisal_recovery.h"
#include "widgets/display_format.h"
#include "widgets/run_colours.h"
#include "widgets/surprisal/recovery_plot.h"

namespace mrnn::widgets {
namespace {

QTableWidgetItem* cell(const QString& text, const QString& toolTip = QString()) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  item->setToolTip(toolTip);
  return item;
}

}  // namespace

RecoveryTable::RecoveryTable(QWidget* parent) : QTableWidget(parent) {
  setObjectName(QStringLiteral("recoveryTable"));
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionMode(QAbstractItemView::ContiguousSelection);
  horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  setToolTip(
      tr("Mean loss in bits per symbol; the last row counts the positions each column "
         "averages (a surprising symbol near the end of the text has no +k)."));
  clearRecovery();
}

void RecoveryTable::clearRecovery() {
  clear();
  setRowCount(0);
  setColumnCount(0);
}

void RecoveryTable::showRecovery(const engine::RecoveryTable& table, const QStringList& labels,
                                 const QVector<QColor>& colours) {
  clear();
  const auto k = static_cast<int>(table.offsets);
  const auto models = static_cast<int>(table.overallMean.size());
  setColumnCount(2 + k);
  setRowCount(models + 1);

  QStringList columns{tr("overall"), tr("surprising")};
  for (int offset = 1; offset <= k; ++offset) columns << QStringLiteral("+%1").arg(offset);
  setHorizontalHeaderLabels(columns);
  horizontalHeaderItem(0)->setToolTip(tr("Mean over every scored position of the text"));
  horizontalHeaderItem(1)->setToolTip(
      tr("Mean over the %1 % of positions with the highest loss (averaged over the models)")
          .arg(table.topFraction * 100.0, 0, 'g', 3));
  for (int offset = 1; offset <= k; ++offset) {
    horizontalHeaderItem(1 + offset)
        ->setToolTip(tr("Mean over the positions %1 after a surprising one").arg(offset));
  }

  QStringList rows;
  for (int m = 0; m < models; ++m) {
    const auto row = static_cast<size_t>(m);
    rows << (m < labels.size() ? labels[m] : tr("model %1").arg(m + 1));
    const auto put = [&](int column, double nats) {
      setItem(m, column,
              cell(QString::number(natsToBits(nats), 'f', 3), tr("%1 bits = %2 nats per symbol")
                                                                  .arg(natsToBits(nats), 0, 'f', 4)
                                                                  .arg(nats, 0, 'f', 4)));
    };
    put(0, table.overallMean[row]);
    put(1, table.surprisingMean[row]);
    for (int offset = 1; offset <= k; ++offset) {
      put(1 + offset, table.offsetMean[row][static_cast<size_t>(offset - 1)]);
    }
  }
  rows << tr("positions");
  setVerticalHeaderLabels(rows);
  for (int m = 0; m < models; ++m) {
    // The row label in the curve's colour ties the numbers to the plot.
    verticalHeaderItem(m)->setForeground(colours.value(m, modelColour(0, m)));
  }
  const QString countTip = tr("How many positions this column averages");
  setItem(models, 0, cell(QString::number(table.positions), countTip));
  setItem(models, 1, cell(QString::number(table.surprising), countTip));
  for (int offset = 1; offset <= k; ++offset) {
    const auto counted = static_cast<size_t>(offset - 1);
    setItem(
        models, 1 + offset,
        cell(QString::number(counted < table.offsetCounts.size() ? table.offsetCounts[counted] : 0),
             countTip));
  }
  for (int column = 0; column < columnCount(); ++column) {
    QFont italic = item(models, column)->font();
    italic.setItalic(true);
    item(models, column)->setFont(italic);
    item(models, column)->setForeground(palette().color(QPalette::PlaceholderText));
  }
}

}  // namespace mrnn::widgets
