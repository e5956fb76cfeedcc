#pragma once

#include <QStyledItemDelegate>

namespace mrnn::widgets {

// Draws a palette entry as a small card: the cell's name in bold with its YAML name beside
// it, then what it is and the paper, in grey.
class CellPaletteDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace mrnn::widgets
