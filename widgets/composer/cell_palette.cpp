#include "widgets/composer/cell_palette.h"

#include <QMimeData>

#include "widgets/composer/cell_catalogue.h"
#include "widgets/composer/cell_palette_delegate.h"
#include "widgets/composer/composer_canvas.h"

namespace mrnn::widgets {

CellPalette::CellPalette(QWidget* parent) : QListWidget(parent) {
  setObjectName(QStringLiteral("cellPalette"));
  setItemDelegate(new CellPaletteDelegate(this));
  setDragEnabled(true);
  setDragDropMode(QAbstractItemView::DragOnly);
  setDefaultDropAction(Qt::CopyAction);
  setSelectionMode(QAbstractItemView::SingleSelection);
  setUniformItemSizes(true);
  setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setAccessibleName(tr("Cell palette"));
  setToolTip(
      tr("Drag a cell onto the canvas to add a layer there; double-click or press "
         "Enter to add it above the selected layer."));
  for (engine::CellType type : engine::allCellTypes()) {
    auto* item = new QListWidgetItem(cellDisplayName(type), this);
    item->setData(kCellTypeRole, static_cast<int>(type));
    item->setData(kSummaryRole, cellSummary(type));
    item->setData(kPaperRole, cellPaper(type));
    item->setData(kYamlNameRole, QString::fromStdString(engine::cellTypeName(type)));
    item->setToolTip(cellToolTip(type));
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
  }
  setCurrentRow(rowOf(engine::CellType::Lstm));
  connect(this, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    emit addRequested(static_cast<engine::CellType>(item->data(kCellTypeRole).toInt()));
  });
}

engine::CellType CellPalette::currentCellType() const {
  const QListWidgetItem* item = currentItem();
  return item ? static_cast<engine::CellType>(item->data(kCellTypeRole).toInt())
              : engine::CellType::Lstm;
}

int CellPalette::rowOf(engine::CellType type) const {
  for (int row = 0; row < count(); ++row) {
    if (item(row)->data(kCellTypeRole).toInt() == static_cast<int>(type)) return row;
  }
  return -1;
}

QStringList CellPalette::mimeTypes() const {
  return {QString::fromLatin1(ComposerCanvas::kCellMimeType)};
}

QMimeData* CellPalette::mimeData(const QList<QListWidgetItem*>& items) const {
  if (items.isEmpty()) return nullptr;
  auto* data = new QMimeData;
  const QString name = items.front()->data(kYamlNameRole).toString();
  data->setData(QString::fromLatin1(ComposerCanvas::kCellMimeType), name.toUtf8());
  data->setText(name);
  return data;
}

}  // namespace mrnn::widgets
