#include "widgets/tree/tree_canvas.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace mrnn::widgets {

namespace {

constexpr int kMargin = 12;
constexpr int kColumnGap = 56;  // room for the edges between two columns
constexpr int kRowGap = 6;
constexpr int kPadding = 6;
constexpr int kMarker = 14;  // the +/- marker at the right of a node with children
constexpr int kSymbolChars = 12;
constexpr int kContextChars = 10;

QString probabilityText(double p) {
  if (p >= 0.01) return QString::number(p, 'f', 2);
  return QString::number(p, 'g', 1);
}

// The last `chars` characters, with an ellipsis when cut.
QString tail(const QString& text, int chars) {
  if (text.size() <= chars) return text;
  return QChar(0x2026) + text.right(chars);
}

QString elided(const QString& text, int chars) {
  if (text.size() <= chars) return text;
  return text.left(chars - 1) + QChar(0x2026);
}

}  // namespace

TreeCanvas::TreeCanvas(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("treeCanvas"));
  setAutoFillBackground(true);
  QPalette background = palette();
  background.setColor(QPalette::Window, Qt::white);
  setPalette(background);
  measure();
  relayout();
}

QString TreeCanvas::visibleText(const QString& text) {
  QString shown = text;
  shown.replace(QLatin1Char(' '), QChar(0x2423));
  shown.replace(QLatin1Char('\n'), QChar(0x23CE));
  shown.replace(QLatin1Char('\t'), QChar(0x21E5));
  shown.replace(QLatin1Char('\r'), QChar(0x240D));
  if (shown.isEmpty()) shown = QChar(0x2205);  // an empty symbol still needs a visible box
  return shown;
}

void TreeCanvas::setTree(const QString& context, const engine::TreeResult& tree) {
  context_ = context;
  nodes_.clear();
  rootChildren_.clear();
  nodes_.resize(tree.nodes.size());
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    const engine::TreeNode& source = tree.nodes[i];
    Node& node = nodes_[i];
    node.symbol = visibleText(QString::fromStdString(source.text));
    node.probability = source.probability;
    node.cumulativeLogProb = source.cumulativeLogProb;
    node.depth = static_cast<int>(source.depth);
    node.parent = static_cast<int>(source.parent);
  }
  for (int i = 0; i < nodeCount(); ++i) {
    const int parent = nodes_[static_cast<size_t>(i)].parent;
    if (parent >= 0 && parent < nodeCount()) {
      nodes_[static_cast<size_t>(parent)].children.push_back(i);
    } else {
      rootChildren_.push_back(i);
    }
  }
  // Most probable first; ties keep the engine's order (by symbol id), so layouts repeat.
  const auto byProbability = [this](int a, int b) {
    return nodes_[static_cast<size_t>(a)].probability > nodes_[static_cast<size_t>(b)].probability;
  };
  std::stable_sort(rootChildren_.begin(), rootChildren_.end(), byProbability);
  for (Node& node : nodes_)
    std::stable_sort(node.children.begin(), node.children.end(), byProbability);
  if (nodeCount() > kCollapseAbove) {
    for (int child : rootChildren_) {
      Node& node = nodes_[static_cast<size_t>(child)];
      node.collapsed = !node.children.empty();
    }
  }
  measure();
  relayout();
}

void TreeCanvas::clear() {
  context_.clear();
  nodes_.clear();
  rootChildren_.clear();
  measure();
  relayout();
}

void TreeCanvas::setColour(const QColor& colour) {
  colour_ = colour;
  update();
}

int TreeCanvas::visibleNodeCount() const {
  return static_cast<int>(
      std::count_if(nodes_.begin(), nodes_.end(), [](const Node& node) { return node.visible; }));
}

bool TreeCanvas::isNodeVisible(int node) const {
  return node >= 0 && node < nodeCount() && nodes_[static_cast<size_t>(node)].visible;
}

bool TreeCanvas::isCollapsed(int node) const {
  return node >= 0 && node < nodeCount() && nodes_[static_cast<size_t>(node)].collapsed;
}

bool TreeCanvas::hasChildren(int node) const {
  return node >= 0 && node < nodeCount() && !nodes_[static_cast<size_t>(node)].children.empty();
}

std::vector<int> TreeCanvas::children(int node) const {
  if (node < 0) return rootChildren_;
  if (node >= nodeCount()) return {};
  return nodes_[static_cast<size_t>(node)].children;
}

QRect TreeCanvas::nodeRect(int node) const {
  if (!isNodeVisible(node)) return {};
  return nodes_[static_cast<size_t>(node)].rect.toAlignedRect();
}

QString TreeCanvas::nodeLabel(int node) const {
  if (node < 0 || node >= nodeCount()) return {};
  const Node& n = nodes_[static_cast<size_t>(node)];
  return elided(n.symbol, kSymbolChars) + QLatin1Char(' ') + probabilityText(n.probability);
}

QString TreeCanvas::pathText(int node) const {
  QStringList symbols;
  bool singleCharacters = true;
  for (int at = node; at >= 0 && at < nodeCount(); at = nodes_[static_cast<size_t>(at)].parent) {
    symbols.prepend(nodes_[static_cast<size_t>(at)].symbol);
    singleCharacters = singleCharacters && symbols.front().size() == 1;
  }
  // Characters read as one string; word-level symbols need a separator to be told apart.
  return symbols.join(singleCharacters ? QString() : QStringLiteral(" "));
}

QString TreeCanvas::nodeToolTip(int node) const {
  if (node < 0 || node >= nodeCount()) return {};
  const Node& n = nodes_[static_cast<size_t>(node)];
  QString tip =
      QStringLiteral("<p style='white-space:pre'>%1<b>%2</b></p>")
          .arg(tail(visibleText(context_), 24).toHtmlEscaped(), pathText(node).toHtmlEscaped());
  tip += tr("symbol \u201c%1\u201d at depth %2<br>").arg(n.symbol.toHtmlEscaped()).arg(n.depth);
  tip += tr("p = %1 given the context and the path before it<br>")
             .arg(QString::number(n.probability, 'g', 4));
  tip += tr("cumulative p = %1 (ln p = %2)")
             .arg(QString::number(std::exp(n.cumulativeLogProb), 'g', 4),
                  QString::number(n.cumulativeLogProb, 'f', 3));
  if (!n.children.empty()) {
    tip += QStringLiteral("<br><i>%1</i>")
               .arg(n.collapsed ? tr("%n hidden child(ren): click to expand", "",
                                     static_cast<int>(n.children.size()))
                                : tr("click to collapse"));
  }
  return tip;
}

double TreeCanvas::edgeWidth(int node) const {
  if (node < 0 || node >= nodeCount()) return 0.0;
  return 1.0 + 8.0 * nodes_[static_cast<size_t>(node)].probability;
}

int TreeCanvas::nodeAt(const QPoint& point) const {
  if (!nodes_.empty() && rootRect_.contains(point)) return -2;
  for (int i = 0; i < nodeCount(); ++i) {
    const Node& node = nodes_[static_cast<size_t>(i)];
    if (node.visible && node.rect.contains(point)) return i;
  }
  return -1;
}

void TreeCanvas::toggle(int node) {
  if (!hasChildren(node)) return;
  Node& n = nodes_[static_cast<size_t>(node)];
  n.collapsed = !n.collapsed;
  relayout();
  emit layoutChanged();
}

void TreeCanvas::expandAll() {
  for (Node& node : nodes_) node.collapsed = false;
  relayout();
  emit layoutChanged();
}

void TreeCanvas::collapseAll() {
  for (Node& node : nodes_) node.collapsed = !node.children.empty();
  relayout();
  emit layoutChanged();
}

QRectF TreeCanvas::boxAt(int depth, double row) const {
  const double x = kMargin + rootWidth_ + columnGap_ + (depth - 1) * (boxWidth_ + columnGap_);
  const double y = kMargin + row * (rowHeight_ + kRowGap);
  return QRectF(x, y, boxWidth_, rowHeight_);
}

// Leaves of the visible tree take consecutive rows; a parent sits midway between its first
// and last child. Returns the node's row.
double TreeCanvas::placeSubtree(int node, int depth, double& nextRow) {
  Node& n = nodes_[static_cast<size_t>(node)];
  n.visible = true;
  double row = 0.0;
  if (n.children.empty() || n.collapsed) {
    row = nextRow;
    nextRow += 1.0;
  } else {
    const double first = placeSubtree(n.children.front(), depth + 1, nextRow);
    double last = first;
    for (size_t c = 1; c < n.children.size(); ++c) {
      last = placeSubtree(n.children[c], depth + 1, nextRow);
    }
    row = (first + last) / 2.0;
  }
  n.rect = boxAt(depth, row);
  return row;
}

void TreeCanvas::measure() {
  const QFontMetrics metrics(font());
  rowHeight_ = metrics.height() + 8;
  int widest = metrics.horizontalAdvance(QStringLiteral("\u2423 0.00"));
  for (int i = 0; i < nodeCount(); ++i) {
    widest = std::max(widest, metrics.horizontalAdvance(nodeLabel(i)));
  }
  boxWidth_ = widest + 2 * kPadding + kMarker;
  rootWidth_ = metrics.horizontalAdvance(tail(visibleText(context_), kContextChars)) + 2 * kPadding;
}

void TreeCanvas::relayout() {
  // The narrowest the tree can be drawn; a wider view spreads the columns over its width.
  const int deepest = deepestShown();
  const double narrowest =
      2.0 * kMargin + rootWidth_ + deepest * (static_cast<double>(boxWidth_) + kColumnGap);
  columnGap_ = kColumnGap;
  if (deepest > 0 && width() > narrowest) {
    columnGap_ += std::min((width() - narrowest) / deepest, 6.0 * kColumnGap);
  }

  for (Node& node : nodes_) node.visible = false;
  double nextRow = 0.0;
  double first = 0.0;
  for (size_t c = 0; c < rootChildren_.size(); ++c) {
    const double row = placeSubtree(rootChildren_[c], 1, nextRow);
    if (c == 0) first = row;
  }
  // The root faces its first (most likely) child, near the top: a tall tree would otherwise
  // put it below the fold, with its edges coming from nowhere.
  const double rootRow = rootChildren_.empty() ? 0.0 : first;
  rootRect_ = QRectF(kMargin, kMargin + rootRow * (rowHeight_ + kRowGap), rootWidth_, rowHeight_);

  QSize content;
  if (!nodes_.empty()) {
    const int rows = static_cast<int>(std::max(1.0, nextRow));
    content = QSize(static_cast<int>(std::ceil(narrowest)),
                    kMargin * 2 + rows * rowHeight_ + (rows - 1) * kRowGap);
  }
  drawn_ = content.isValid()
               ? QSize(static_cast<int>(std::ceil(narrowest + deepest * (columnGap_ - kColumnGap))),
                       content.height())
               : QSize();
  if (content != content_) {
    content_ = content;
    setMinimumSize(content_.isValid() ? content_ : QSize(0, 0));
    updateGeometry();
  }
  update();
}

int TreeCanvas::deepestShown() const {
  int deepest = 0;
  std::vector<std::pair<int, int>> stack;  // node, depth
  for (const int child : rootChildren_) stack.emplace_back(child, 1);
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    const Node& node = nodes_[static_cast<size_t>(index)];
    if (node.collapsed) continue;
    for (const int child : node.children) stack.emplace_back(child, depth + 1);
  }
  return deepest;
}

void TreeCanvas::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (!nodes_.empty()) relayout();
}

QSize TreeCanvas::sizeHint() const {
  return content_.isValid() ? content_ : QSize(360, 220);
}

QSize TreeCanvas::minimumSizeHint() const {
  return content_.isValid() ? content_ : QSize(120, 80);
}

void TreeCanvas::drawNode(QPainter& painter, const QRectF& rect, const QString& text,
                          double probability, bool hasChildren, bool collapsed) const {
  // The fill deepens with the probability, so likely branches stand out at a glance.
  QColor fill = colour_;
  fill.setAlphaF(static_cast<float>(0.08 + 0.45 * std::clamp(probability, 0.0, 1.0)));
  painter.setPen(QPen(colour_.darker(130), 1.0));
  painter.setBrush(fill);
  painter.drawRoundedRect(rect, 5, 5);
  painter.setPen(palette().color(QPalette::Active, QPalette::Text));
  const QRectF textRect = rect.adjusted(kPadding, 0, -kPadding - (hasChildren ? kMarker : 0), 0);
  painter.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, text);
  if (!hasChildren) return;
  const QPointF centre(rect.right() - kPadding - kMarker / 2.0 + 2, rect.center().y());
  const double radius = 5.5;
  painter.setPen(QPen(colour_.darker(140), 1.2));
  painter.setBrush(Qt::white);
  painter.drawEllipse(centre, radius, radius);
  painter.drawLine(QPointF(centre.x() - 3, centre.y()), QPointF(centre.x() + 3, centre.y()));
  if (collapsed) {
    painter.drawLine(QPointF(centre.x(), centre.y() - 3), QPointF(centre.x(), centre.y() + 3));
  }
}

void TreeCanvas::paintTree(QPainter& painter, const QRect& exposed) const {
  if (nodes_.empty()) return;
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setFont(font());
  const QRectF area = exposed.isNull() ? QRectF(QPointF(0, 0), QSizeF(drawn_)) : QRectF(exposed);

  // Edges under the boxes. Only what reaches the exposed area is drawn (large trees).
  QColor edge = colour_;
  edge.setAlphaF(0.55f);
  painter.setBrush(Qt::NoBrush);
  for (int i = 0; i < nodeCount(); ++i) {
    const Node& node = nodes_[static_cast<size_t>(i)];
    if (!node.visible) continue;
    const QRectF from =
        node.parent >= 0 ? nodes_[static_cast<size_t>(node.parent)].rect : rootRect_;
    const QPointF start(from.right(), from.center().y());
    const QPointF end(node.rect.left(), node.rect.center().y());
    if (!area.intersects(QRectF(start, end).normalized().adjusted(-10, -10, 10, 10))) continue;
    painter.setPen(QPen(edge, edgeWidth(i), Qt::SolidLine, Qt::FlatCap));
    QPainterPath path(start);
    const double middle = (start.x() + end.x()) / 2.0;
    path.cubicTo(QPointF(middle, start.y()), QPointF(middle, end.y()), end);
    painter.drawPath(path);
  }

  // The root: the context's last characters, in grey (it is given, not predicted).
  painter.setPen(QPen(QColor(120, 120, 120), 1.0));
  painter.setBrush(QColor(235, 235, 235));
  painter.drawRoundedRect(rootRect_, 5, 5);
  painter.setPen(palette().color(QPalette::Active, QPalette::Text));
  painter.drawText(rootRect_.adjusted(kPadding, 0, -kPadding, 0), Qt::AlignVCenter | Qt::AlignRight,
                   tail(visibleText(context_), kContextChars));

  for (int i = 0; i < nodeCount(); ++i) {
    const Node& node = nodes_[static_cast<size_t>(i)];
    if (!node.visible || !area.intersects(node.rect)) continue;
    drawNode(painter, node.rect, nodeLabel(i), node.probability, !node.children.empty(),
             node.collapsed);
  }
  painter.restore();
}

void TreeCanvas::paintEvent(QPaintEvent* event) {
  QPainter painter(this);
  if (nodes_.empty()) {
    painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
    painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                     tr("Choose a model and a context, then Run to grow the tree of "
                        "continuations."));
    return;
  }
  paintTree(painter, event->rect());
}

void TreeCanvas::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    const int node = nodeAt(event->position().toPoint());
    if (hasChildren(node)) {
      toggle(node);
      event->accept();
      return;
    }
  }
  QWidget::mousePressEvent(event);
}

bool TreeCanvas::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int node = nodeAt(help->pos());
    if (node >= 0) {
      QToolTip::showText(help->globalPos(), nodeToolTip(node), this, nodeRect(node));
    } else if (node == -2) {
      QToolTip::showText(help->globalPos(),
                         tr("The context the tree grows from:<br><b>%1</b>")
                             .arg(visibleText(context_).toHtmlEscaped()),
                         this, rootRect());
    } else {
      QToolTip::hideText();
      event->ignore();
    }
    return true;
  }
  return QWidget::event(event);
}

}  // namespace mrnn::widgets
