#include "widgets/composer/composer_canvas.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cstdlib>

#include "widgets/composer/cell_catalogue.h"

namespace mrnn::widgets {
namespace {

constexpr int kMarginTop = 22;
constexpr int kMarginBottom = 26;
constexpr int kSideMargin = 56;
constexpr int kMinBlockWidth = 280;
constexpr int kMaxBlockWidth = 470;
constexpr int kArrowGap = 46;      // vertical space between blocks, the arrow inside
constexpr int kFramePadding = 16;  // the layer stack's frame around its blocks
constexpr int kFrameLabel = 24;    // the frame's heading band
constexpr int kStripe = 6;         // the coloured band on each block's left
constexpr int kRadius = 8;

const QColor kBackground(0xf5, 0xf6, 0xf8);
const QColor kGridDot(0xdd, 0xe1, 0xe6);
const QColor kBlockFill(Qt::white);
const QColor kSelectedFill(0xee, 0xf4, 0xff);
const QColor kBorder(0xc4, 0xcb, 0xd4);
const QColor kSelectedBorder(0x1c, 0x6e, 0xd4);
const QColor kProblem(0xc9, 0x2a, 0x2a);
const QColor kTitleText(0x21, 0x25, 0x29);
const QColor kBodyText(0x34, 0x3a, 0x40);
const QColor kMutedText(0x6c, 0x75, 0x7d);
const QColor kArrow(0x86, 0x8e, 0x96);
const QColor kDrop(0x1c, 0x6e, 0xd4);

QColor stripeColour(const ComposerBlock& block) {
  switch (block.kind) {
    case ComposerBlock::Kind::Input:
      return QColor(0x2b, 0x8a, 0x3e);
    case ComposerBlock::Kind::Output:
      return QColor(0xe8, 0x59, 0x0c);
    case ComposerBlock::Kind::Layer:
      break;
  }
  return cellFamilyColour(block.cellType);
}

QFont scaledFont(const QFont& base, qreal factor, bool bold) {
  QFont font = base;
  font.setPointSizeF(base.pointSizeF() * factor);
  font.setBold(bold);
  return font;
}

}  // namespace

const char* const ComposerCanvas::kCellMimeType = "application/x-mrnn-cell-type";

ComposerCanvas::ComposerCanvas(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("composerCanvas"));
  setFocusPolicy(Qt::StrongFocus);
  setAcceptDrops(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setAccessibleName(tr("Model architecture"));
  setAccessibleDescription(
      tr("The model from input to output. Drag layers to reorder them; drop cells from the "
         "palette to add layers."));
}

void ComposerCanvas::setBlocks(std::vector<ComposerBlock> blocks) {
  blocks_ = std::move(blocks);
  if (selected_ >= blockCount()) selected_ = blockCount() - 1;
  relayout();
  updateGeometry();
  update();
}

void ComposerCanvas::setSelectedBlock(int index) {
  if (index < -1 || index >= blockCount()) index = -1;
  if (index == selected_) return;
  selected_ = index;
  update();
  emit selectionChanged(selected_);
}

QRect ComposerCanvas::blockRect(int index) const {
  if (index < 0 || index >= static_cast<int>(rects_.size())) return {};
  return rects_[static_cast<size_t>(index)];
}

int ComposerCanvas::blockAt(const QPoint& position) const {
  for (int i = 0; i < static_cast<int>(rects_.size()); ++i) {
    if (rects_[static_cast<size_t>(i)].contains(position)) return i;
  }
  return -1;
}

int ComposerCanvas::insertionPositionAt(const QPoint& position) const {
  const int layers = layerCount();
  if (layers <= 0) return 0;
  int best = 0;
  for (int candidate = 1; candidate <= layers; ++candidate) {
    if (std::abs(position.y() - gapY(candidate)) < std::abs(position.y() - gapY(best))) {
      best = candidate;
    }
  }
  return best;
}

QSize ComposerCanvas::sizeHint() const {
  return {kMaxBlockWidth + 2 * kSideMargin, layoutHeight()};
}

QSize ComposerCanvas::minimumSizeHint() const {
  return {kMinBlockWidth + 2 * (kFramePadding + 8), layoutHeight()};
}

int ComposerCanvas::layoutHeight() const {
  if (rects_.empty()) return 200;
  return rects_.back().bottom() + kMarginBottom;
}

void ComposerCanvas::relayout() {
  rects_.clear();
  emptySlot_ = QRect();
  if (blocks_.empty()) return;
  const QFontMetrics title(scaledFont(font(), 1.1, true));
  const QFontMetrics body(font());
  const QFontMetrics small(scaledFont(font(), 0.92, false));
  const int blockHeight = 12 + title.height() + 6 + body.height() + 4 + small.height() + 12;
  const int blockWidth = std::clamp(width() - 2 * kSideMargin, kMinBlockWidth, kMaxBlockWidth);
  const int x = std::max(kFramePadding + 8, (width() - blockWidth) / 2);

  int y = kMarginTop;
  rects_.emplace_back(x, y, blockWidth, blockHeight);
  y += blockHeight + kArrowGap + kFrameLabel;
  const int layers = layerCount();
  if (layers <= 0) {
    emptySlot_ = QRect(x, y, blockWidth, blockHeight);
    y += blockHeight;
  }
  for (int i = 0; i < layers; ++i) {
    rects_.emplace_back(x, y, blockWidth, blockHeight);
    y += blockHeight + (i + 1 < layers ? kArrowGap : 0);
  }
  y += kFramePadding + kArrowGap;
  rects_.emplace_back(x, y, blockWidth, blockHeight);
  setMinimumHeight(layoutHeight());
}

QRect ComposerCanvas::stackFrame() const {
  if (rects_.size() < 2) return {};
  const QRect first = layerCount() > 0 ? rects_[1] : emptySlot_;
  const QRect last = layerCount() > 0 ? rects_[rects_.size() - 2] : emptySlot_;
  return QRect(QPoint(first.left() - kFramePadding, first.top() - kFrameLabel),
               QPoint(first.right() + kFramePadding, last.bottom() + kFramePadding));
}

int ComposerCanvas::gapY(int position) const {
  const int layers = layerCount();
  if (layers <= 0) return emptySlot_.center().y();
  if (position <= 0) return rects_[1].top() - kFrameLabel / 3;
  if (position >= layers) return rects_[static_cast<size_t>(layers)].bottom() + kFramePadding / 2;
  const QRect& below = rects_[static_cast<size_t>(position)];
  const QRect& above = rects_[static_cast<size_t>(position + 1)];
  return (below.bottom() + above.top()) / 2;
}

bool ComposerCanvas::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) {
      QToolTip::hideText();
      event->ignore();
    } else {
      QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
  }
  return QWidget::event(event);
}

QString ComposerCanvas::toolTipAt(const QPoint& position) const {
  const int index = blockAt(position);
  if (index < 0) {
    if (emptySlot_.contains(position)) {
      return tr(
          "The model needs at least one recurrent layer: drag a cell here from the "
          "palette, or double-click.");
    }
    return QString();
  }
  const ComposerBlock& block = blocks_[static_cast<size_t>(index)];
  QString text = block.toolTip;
  text += QStringLiteral("<br><br>") +
          (block.parameters >= 0 ? tr("<b>%1</b> parameters").arg(formatCount(block.parameters))
                                 : tr("Parameters not known until the vocabulary size is known"));
  for (const QString& problem : block.problems) {
    text += QStringLiteral("<br><span style='color:#c92a2a'>&#9888; %1</span>")
                .arg(problem.toHtmlEscaped());
  }
  if (block.kind == ComposerBlock::Kind::Layer) {
    text += tr("<br><br><i>Drag to reorder; right-click for more.</i>");
  }
  return text;
}

void ComposerCanvas::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  relayout();
}

void ComposerCanvas::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), kBackground);
  // A faint dot grid: reads as a canvas, not a form.
  painter.setPen(QPen(kGridDot, 1.5));
  for (int gx = 8; gx < width(); gx += 18) {
    for (int gy = 8; gy < height(); gy += 18) painter.drawPoint(gx, gy);
  }
  if (rects_.empty()) return;

  // The layer stack's frame and heading.
  const QRect frame = stackFrame();
  painter.setPen(QPen(QColor(0xb8, 0xc0, 0xca), 1, Qt::DashLine));
  painter.setBrush(QColor(0xff, 0xff, 0xff, 110));
  painter.drawRoundedRect(frame, kRadius + 4, kRadius + 4);
  painter.setPen(kMutedText);
  painter.setFont(scaledFont(font(), 0.9, true));
  const int layers = layerCount();
  const QString heading = layers == 1 ? tr("RECURRENT LAYERS · 1 layer")
                                      : tr("RECURRENT LAYERS · %1 layers").arg(layers);
  painter.drawText(frame.adjusted(12, 4, -12, 0), Qt::AlignLeft | Qt::AlignTop, heading);

  for (int i = 0; i + 1 < blockCount(); ++i) paintArrow(painter, i);
  if (layers <= 0) paintEmptyStack(painter);

  for (int i = 0; i < blockCount(); ++i) {
    const bool dragged = reordering_ && i == pressedBlock_;
    paintBlock(painter, i, rects_[static_cast<size_t>(i)], dragged ? 0.3 : 1.0);
  }
  if (dropPosition_ >= 0) paintInsertionMarker(painter, dropPosition_);
  if (reordering_ && pressedBlock_ >= 0) {
    QRect ghost = rects_[static_cast<size_t>(pressedBlock_)];
    ghost.moveTop(ghost.top() + dragPosition_.y() - pressPosition_.y());
    paintBlock(painter, pressedBlock_, ghost, 0.9);
  }
}

void ComposerCanvas::paintBlock(QPainter& painter, int index, const QRect& rect,
                                qreal opacity) const {
  const ComposerBlock& block = blocks_[static_cast<size_t>(index)];
  const bool selected = index == selected_;
  const bool invalid = !block.problems.isEmpty();
  painter.save();
  painter.setOpacity(opacity);

  // Soft shadow, then the card.
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(0, 0, 0, 22));
  painter.drawRoundedRect(QRectF(rect).translated(0, 2), kRadius, kRadius);
  QPainterPath card;
  card.addRoundedRect(QRectF(rect), kRadius, kRadius);
  painter.fillPath(card, selected ? kSelectedFill : kBlockFill);
  painter.save();
  painter.setClipPath(card);
  painter.fillRect(QRect(rect.left(), rect.top(), kStripe, rect.height()), stripeColour(block));
  painter.restore();
  const QColor border = invalid ? kProblem : (selected ? kSelectedBorder : kBorder);
  painter.setPen(QPen(border, invalid || selected ? 2.0 : 1.0));
  painter.setBrush(Qt::NoBrush);
  painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), kRadius, kRadius);

  const QFont titleFont = scaledFont(font(), 1.1, true);
  const QFont smallFont = scaledFont(font(), 0.92, false);
  const QFontMetrics titleMetrics(titleFont);
  const QFontMetrics bodyMetrics(font());
  const QFontMetrics smallMetrics(smallFont);
  const int left = rect.left() + kStripe + 12;
  const int right = rect.right() - 14;
  int y = rect.top() + 12;

  // Title row: name on the left, parameter count on the right.
  const QString count =
      block.parameters >= 0 ? tr("%1 params").arg(formatCount(block.parameters)) : tr("? params");
  painter.setFont(font());
  const int countWidth = bodyMetrics.horizontalAdvance(count);
  painter.setPen(block.parameters >= 0 ? kBodyText : kMutedText);
  painter.drawText(QRect(right - countWidth, y, countWidth, titleMetrics.height()),
                   Qt::AlignRight | Qt::AlignVCenter, count);
  painter.setFont(titleFont);
  painter.setPen(kTitleText);
  const int titleWidth = right - countWidth - 12 - left;
  painter.drawText(QRect(left, y, titleWidth, titleMetrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   titleMetrics.elidedText(block.title, Qt::ElideRight, titleWidth));
  y += titleMetrics.height() + 6;

  painter.setFont(font());
  painter.setPen(kBodyText);
  painter.drawText(QRect(left, y, right - left, bodyMetrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   bodyMetrics.elidedText(block.detail, Qt::ElideRight, right - left));
  y += bodyMetrics.height() + 4;

  // Third line: the first problem when invalid (the reason, on the block), else extras.
  painter.setFont(smallFont);
  QString third = block.extra;
  if (invalid) {
    painter.setPen(kProblem);
    third = QStringLiteral("⚠ ") + block.problems.front();
  } else {
    painter.setPen(kMutedText);
  }
  painter.drawText(QRect(left, y, right - left, smallMetrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   smallMetrics.elidedText(third, Qt::ElideRight, right - left));

  if (invalid) {
    // A red badge on the corner, visible at a glance even when the text is elided.
    const QRectF badge(rect.right() - 9, rect.top() - 9, 18, 18);
    painter.setPen(QPen(Qt::white, 1.5));
    painter.setBrush(kProblem);
    painter.drawEllipse(badge);
    painter.setFont(scaledFont(font(), 0.9, true));
    painter.drawText(badge, Qt::AlignCenter, QStringLiteral("!"));
  }
  painter.restore();
}

void ComposerCanvas::paintArrow(QPainter& painter, int fromBlock) const {
  QRect from = rects_[static_cast<size_t>(fromBlock)];
  QRect to = rects_[static_cast<size_t>(fromBlock + 1)];
  const bool intoEmptyStack = layerCount() <= 0;
  if (intoEmptyStack) {
    // input -> empty slot -> output, drawn as two dashed arrows.
    painter.save();
    painter.setPen(QPen(kArrow, 1.4, Qt::DashLine));
    const int cx = from.center().x();
    painter.drawLine(cx, from.bottom() + 3, cx, emptySlot_.top() - 6);
    painter.drawLine(cx, emptySlot_.bottom() + 3, cx, to.top() - 6);
    painter.restore();
    return;
  }
  const int cx = from.center().x();
  const int top = from.bottom() + 3;
  const int bottom = to.top() - 3;
  painter.save();
  painter.setPen(QPen(kArrow, 1.6));
  painter.drawLine(cx, top, cx, bottom - 6);
  QPolygonF head;
  head << QPointF(cx - 5, bottom - 8) << QPointF(cx + 5, bottom - 8) << QPointF(cx, bottom);
  painter.setBrush(kArrow);
  painter.setPen(Qt::NoPen);
  painter.drawPolygon(head);

  // The width of the vectors travelling along the arrow.
  const qint64 width = blocks_[static_cast<size_t>(fromBlock)].outputWidth;
  if (width > 0) {
    const QFont labelFont = scaledFont(font(), 0.88, false);
    const QFontMetrics metrics(labelFont);
    const QString label = formatCount(width);
    const int midY = (from.bottom() + to.top()) / 2;
    // Into the stack the arrow crosses the frame's heading band: label above the band.
    const int labelY = fromBlock == 0 ? (from.bottom() + to.top() - kFrameLabel) / 2 : midY;
    const QRect pill(cx + 10, labelY - metrics.height() / 2 - 1,
                     metrics.horizontalAdvance(label) + 12, metrics.height() + 2);
    painter.setBrush(QColor(0xe9, 0xec, 0xef));
    painter.drawRoundedRect(pill, pill.height() / 2.0, pill.height() / 2.0);
    painter.setFont(labelFont);
    painter.setPen(kBodyText);
    painter.drawText(pill, Qt::AlignCenter, label);
  }
  painter.restore();
}

void ComposerCanvas::paintEmptyStack(QPainter& painter) const {
  painter.save();
  const bool hot = dropPosition_ >= 0;
  painter.setPen(QPen(hot ? kDrop : kProblem, 1.5, Qt::DashLine));
  painter.setBrush(hot ? QColor(0xe7, 0xf0, 0xff) : QColor(0xff, 0xf5, 0xf5));
  painter.drawRoundedRect(emptySlot_, kRadius, kRadius);
  painter.setPen(hot ? kDrop : kProblem);
  painter.drawText(emptySlot_.adjusted(12, 6, -12, -6), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No recurrent layer yet.\nDrag a cell here from the palette, or "
                      "double-click."));
  painter.restore();
}

void ComposerCanvas::paintInsertionMarker(QPainter& painter, int position) const {
  if (layerCount() <= 0) return;  // the empty slot lights up instead
  const int y = gapY(position);
  const QRect reference = rects_[1];
  painter.save();
  painter.setPen(QPen(kDrop, 3, Qt::SolidLine, Qt::RoundCap));
  painter.drawLine(reference.left() + 4, y, reference.right() - 4, y);
  painter.setBrush(kDrop);
  painter.setPen(Qt::NoPen);
  painter.drawEllipse(QPointF(reference.left() + 4, y), 4.5, 4.5);
  painter.drawEllipse(QPointF(reference.right() - 4, y), 4.5, 4.5);
  painter.restore();
}

void ComposerCanvas::mousePressEvent(QMouseEvent* event) {
  setFocus(Qt::MouseFocusReason);
  if (event->button() != Qt::LeftButton) {
    QWidget::mousePressEvent(event);
    return;
  }
  const int index = blockAt(event->position().toPoint());
  if (index >= 0) setSelectedBlock(index);
  const bool isLayer =
      index >= 0 && blocks_[static_cast<size_t>(index)].kind == ComposerBlock::Kind::Layer;
  pressedBlock_ = isLayer ? index : -1;
  pressPosition_ = event->position().toPoint();
  reordering_ = false;
}

void ComposerCanvas::mouseMoveEvent(QMouseEvent* event) {
  if (pressedBlock_ < 0 || !(event->buttons() & Qt::LeftButton)) return;
  const QPoint position = event->position().toPoint();
  if (!reordering_ &&
      (position - pressPosition_).manhattanLength() < QApplication::startDragDistance()) {
    return;
  }
  reordering_ = true;
  setCursor(Qt::ClosedHandCursor);
  dragPosition_ = position;
  dropPosition_ = insertionPositionAt(position);
  update();
}

void ComposerCanvas::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && reordering_) {
    const int from = pressedBlock_ - 1;
    const int gap = insertionPositionAt(event->position().toPoint());
    const int to = gap > from ? gap - 1 : gap;
    reordering_ = false;
    pressedBlock_ = -1;
    dropPosition_ = -1;
    unsetCursor();
    update();
    if (to != from) emit moveLayerRequested(from, to);
    return;
  }
  pressedBlock_ = -1;
  QWidget::mouseReleaseEvent(event);
}

void ComposerCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  const QPoint position = event->position().toPoint();
  if (blockAt(position) < 0 && (stackFrame().contains(position) || emptySlot_.contains(position))) {
    emit addLayerRequested(insertionPositionAt(position));
    return;
  }
  QWidget::mouseDoubleClickEvent(event);
}

void ComposerCanvas::keyPressEvent(QKeyEvent* event) {
  if (reordering_ && event->key() == Qt::Key_Escape) {
    reordering_ = false;
    pressedBlock_ = -1;
    dropPosition_ = -1;
    unsetCursor();
    update();
    return;
  }
  if (event->modifiers() == Qt::NoModifier) {
    switch (event->key()) {
      case Qt::Key_Up:
        setSelectedBlock(std::max(0, selected_ - 1));
        return;
      case Qt::Key_Down:
        setSelectedBlock(std::min(blockCount() - 1, selected_ + 1));
        return;
      case Qt::Key_Home:
        setSelectedBlock(0);
        return;
      case Qt::Key_End:
        setSelectedBlock(blockCount() - 1);
        return;
      default:
        break;
    }
  }
  QWidget::keyPressEvent(event);
}

void ComposerCanvas::contextMenuEvent(QContextMenuEvent* event) {
  const int index = blockAt(event->pos());
  if (index >= 0) setSelectedBlock(index);
  emit contextMenuRequested(index, event->globalPos());
}

void ComposerCanvas::dragEnterEvent(QDragEnterEvent* event) {
  if (!event->mimeData()->hasFormat(QString::fromLatin1(kCellMimeType))) {
    event->ignore();
    return;
  }
  // Always a copy: a move would make the palette remove its entry.
  event->setDropAction(Qt::CopyAction);
  event->accept();
  dropPosition_ = insertionPositionAt(event->position().toPoint());
  update();
}

void ComposerCanvas::dragMoveEvent(QDragMoveEvent* event) {
  if (!event->mimeData()->hasFormat(QString::fromLatin1(kCellMimeType))) {
    event->ignore();
    return;
  }
  event->setDropAction(Qt::CopyAction);
  event->accept();
  const int position = insertionPositionAt(event->position().toPoint());
  if (position != dropPosition_) {
    dropPosition_ = position;
    update();
  }
}

void ComposerCanvas::dragLeaveEvent(QDragLeaveEvent* /*event*/) {
  dropPosition_ = -1;
  update();
}

void ComposerCanvas::dropEvent(QDropEvent* event) {
  const QByteArray name = event->mimeData()->data(QString::fromLatin1(kCellMimeType));
  const auto type = engine::cellTypeFromName(name.toStdString());
  const int position = insertionPositionAt(event->position().toPoint());
  dropPosition_ = -1;
  update();
  if (!type) {
    event->ignore();
    return;
  }
  event->setDropAction(Qt::CopyAction);
  event->accept();
  emit insertLayerRequested(*type, position);
}

}  // namespace mrnn::widgets
