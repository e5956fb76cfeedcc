#include "widgets/surprisal/surprisal_difference_list.h"

#include <QHeaderView>

#include <algorithm>

#include "engine/scoring/surprisal_difference.h"
#include "engine/scoring/text_score.h"
#include "widgets/surprisal/surprisal_scale.h"
#include "widgets/visible_symbol.h"

namespace mrnn::widgets {
namespace {

constexpr int kSymbolRole = Qt::UserRole + 1;

QTableWidgetItem* numberCell(double value, bool signedValue) {
  QString text = QString::number(value, 'f', 2);
  if (signedValue && value > 0) text.prepend(QLatin1Char('+'));
  if (text.startsWith(QLatin1Char('-'))) text.replace(0, 1, QChar(0x2212));  // − reads better
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

// A symbol as it reads inside a line of context.
QString inLine(const std::string& text) {
  if (text.size() == 1 && text[0] == ' ') return QStringLiteral(" ");
  return visibleSymbol(text);
}

}  // namespace

SurprisalDifferenceList::SurprisalDifferenceList(QWidget* parent) : QTableWidget(parent) {
  setObjectName(QStringLiteral("surprisalDifferenceList"));
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setSelectionMode(QAbstractItemView::SingleSelection);
  setWordWrap(false);
  verticalHeader()->setVisible(false);
  verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  setToolTip(tr("Where the two models disagree most: choose a row to see the symbol in the text"));
  connect(this, &QTableWidget::currentCellChanged, this, [this](int row) {
    const int index = symbolOfRow(row);
    if (index >= 0) emit symbolChosen(index);
  });
  clearDifference();
}

void SurprisalDifferenceList::clearDifference() {
  clear();
  setRowCount(0);
  setColumnCount(4);
  setHorizontalHeaderLabels({tr("In context"), tr("A bits"), tr("B bits"), tr("A \u2212 B")});
  horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int c = 1; c < 4; ++c)
    horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
}

void SurprisalDifferenceList::showDifference(const engine::TextScore& score,
                                             const engine::SurprisalDifference& difference,
                                             const QString& nameA, const QString& nameB,
                                             bool wordLevel) {
  clearDifference();
  horizontalHeaderItem(1)->setToolTip(
      tr("Model A (%1): the symbol's surprisal in bits").arg(nameA));
  horizontalHeaderItem(2)->setToolTip(
      tr("Model B (%1): the symbol's surprisal in bits").arg(nameB));
  horizontalHeaderItem(3)->setToolTip(
      tr("A's bits minus B's: negative where A expected the symbol more than B did"));
  setRowCount(static_cast<int>(difference.largest.size()));
  const QString separator = wordLevel ? QStringLiteral(" ") : QString();
  const auto count = static_cast<int64_t>(score.symbols.size());
  for (int row = 0; row < rowCount(); ++row) {
    const auto& d = difference.largest[static_cast<size_t>(row)];
    QStringList before, after;
    for (int64_t i = std::max<int64_t>(0, d.index - kContext); i < d.index; ++i) {
      before << inLine(score.symbols[static_cast<size_t>(i)].text);
    }
    for (int64_t i = d.index + 1; i < std::min(count, d.index + 1 + kContext); ++i) {
      after << inLine(score.symbols[static_cast<size_t>(i)].text);
    }
    const QString symbol = inLine(score.symbols[static_cast<size_t>(d.index)].text);
    const QString context = before.join(separator) + separator + QStringLiteral("\u2039") + symbol +
                            QStringLiteral("\u203a") + separator + after.join(separator);
    auto* contextItem = new QTableWidgetItem(context);
    contextItem->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    contextItem->setData(kSymbolRole, static_cast<qlonglong>(d.index));
    contextItem->setToolTip(tr("Symbol %1 of the text, between \u2039 \u203a").arg(d.index + 1));
    setItem(row, 0, contextItem);
    setItem(row, 1, numberCell(d.bitsA, false));
    setItem(row, 2, numberCell(d.bitsB, false));
    auto* differenceItem = numberCell(d.difference(), true);
    const QColor background = SurprisalScale::differenceColour(d.difference());
    differenceItem->setBackground(background);
    differenceItem->setForeground(SurprisalScale::textOn(background));
    setItem(row, 3, differenceItem);
  }
}

int SurprisalDifferenceList::symbolOfRow(int row) const {
  const QTableWidgetItem* first = row >= 0 && row < rowCount() ? item(row, 0) : nullptr;
  return first ? first->data(kSymbolRole).toInt() : -1;
}

}  // namespace mrnn::widgets
