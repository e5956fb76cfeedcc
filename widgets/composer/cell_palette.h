#pragma once

#include <QListWidget>

#include "engine/config/cell_type.h"

namespace mrnn::widgets {

// Every cell of the zoo, with its name and paper. Drag a cell onto the canvas to insert a
// layer there, or double-click (Enter) to append one above the selected layer.
class CellPalette : public QListWidget {
  Q_OBJECT

 public:
  static constexpr int kCellTypeRole = Qt::UserRole;
  static constexpr int kSummaryRole = Qt::UserRole + 1;
  static constexpr int kPaperRole = Qt::UserRole + 2;
  static constexpr int kYamlNameRole = Qt::UserRole + 3;

  explicit CellPalette(QWidget* parent = nullptr);

  engine::CellType currentCellType() const;
  // The row of `type` (the palette lists allCellTypes() in order).
  int rowOf(engine::CellType type) const;

 signals:
  void addRequested(engine::CellType type);

 protected:
  QStringList mimeTypes() const override;
  QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override;
  // Cells are copied onto the canvas, never moved out of the palette.
  Qt::DropActions supportedDropActions() const override { return Qt::CopyAction; }
};

}  // namespace mrnn::widgets
