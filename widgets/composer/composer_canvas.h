#pragma once

#include <QPoint>
#include <QRect>
#include <QWidget>
#include <vector>

#include "engine/config/cell_type.h"
#include "widgets/composer/composer_block.h"

namespace mrnn::widgets {

// The model drawn as a column of blocks joined by arrows labelled with the vector widths:
// input, then the layer stack in a frame (bottom layer first, as in the YAML), then the
// output. It shows what it is given and reports what the user asks for (select, insert,
// move, context menu); the composer panel turns requests into document edits.
//
// Layers reorder by dragging; cells dropped from the palette (mime type kCellMimeType) are
// inserted where the drop indicator shows.
class ComposerCanvas : public QWidget {
  Q_OBJECT

 public:
  // Mime type of a palette drag: the cell's YAML name as UTF-8.
  static const char* const kCellMimeType;

  explicit ComposerCanvas(QWidget* parent = nullptr);

  void setBlocks(std::vector<ComposerBlock> blocks);
  const std::vector<ComposerBlock>& blocks() const { return blocks_; }
  int blockCount() const { return static_cast<int>(blocks_.size()); }
  int layerCount() const { return blockCount() - 2; }

  int selectedBlock() const { return selected_; }
  // Selects block `index` (-1: none) and emits selectionChanged when it changes.
  void setSelectedBlock(int index);

  // Geometry in widget coordinates, for tests and the drag logic.
  QRect blockRect(int index) const;
  int blockAt(const QPoint& position) const;
  // The insertion position (0..layerCount) a drop at `position` would use.
  int insertionPositionAt(const QPoint& position) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  void selectionChanged(int block);
  void insertLayerRequested(engine::CellType type, int position);
  // Double-click on the stack's background: add the palette's current cell there.
  void addLayerRequested(int position);
  void moveLayerRequested(int from, int to);
  void contextMenuRequested(int block, const QPoint& globalPosition);

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dragLeaveEvent(QDragLeaveEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void relayout();
  int layoutHeight() const;
  // Centre line (y) of the gap a layer inserted at `position` would fill.
  int gapY(int position) const;
  QRect stackFrame() const;
  QString toolTipAt(const QPoint& position) const;
  void paintBlock(class QPainter& painter, int index, const QRect& rect, qreal opacity) const;
  void paintArrow(QPainter& painter, int fromBlock) const;
  void paintEmptyStack(QPainter& painter) const;
  void paintInsertionMarker(QPainter& painter, int position) const;

  std::vector<ComposerBlock> blocks_;
  std::vector<QRect> rects_;
  QRect emptySlot_;  // where the first layer goes while there is none
  int selected_ = -1;

  // Reordering by drag: the layer block pressed, where, and whether the drag started.
  int pressedBlock_ = -1;
  QPoint pressPosition_;
  QPoint dragPosition_;
  bool reordering_ = false;
  // Where a drop (reorder or palette) would insert; -1 when no drag is over the canvas.
  int dropPosition_ = -1;
};

}  // namespace mrnn::widgets
