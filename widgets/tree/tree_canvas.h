#pragma once

#include <QColor>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <vector>

#include "engine/probing/tree_result.h"

class QPainter;

namespace mrnn::widgets {

// One model's tree of continuations, drawn left to right: the context's end (the root) at
// the left, one column per depth, each node a rounded box "symbol probability", the edge to
// it as wide as its probability (1 + 8p px), siblings most probable first. Clicking a node
// with children collapses or expands its subtree. Meant to sit in a QScrollArea: the widget
// asks for the size of its visible tree, so a few hundred nodes scroll.
class TreeCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit TreeCanvas(QWidget* parent = nullptr);

  // Shows `tree` grown from `context`; node indices are those of tree.nodes. Everything is
  // expanded, unless the tree has more than kCollapseAbove nodes: then the depth-1 nodes
  // start collapsed, so that a large tree opens as a readable list.
  void setTree(const QString& context, const engine::TreeResult& tree);
  void clear();
  // The colour of the model (edges, node fill), matching its curve in the spread plot.
  void setColour(const QColor& colour);
  QColor colour() const { return colour_; }

  int nodeCount() const { return static_cast<int>(nodes_.size()); }
  // Nodes drawn now (the root not counted).
  int visibleNodeCount() const;
  bool isNodeVisible(int node) const;
  bool isCollapsed(int node) const;
  bool hasChildren(int node) const;
  // The children of `node` (-1: the root's) in drawing order, most probable first.
  std::vector<int> children(int node) const;
  // The box of node `node` in widget coordinates; empty when hidden or unknown.
  QRect nodeRect(int node) const;
  QRect rootRect() const { return rootRect_.toAlignedRect(); }
  // What the box of `node` reads ("e 0.31") and its tooltip (path, probability, cumulative).
  QString nodeLabel(int node) const;
  QString nodeToolTip(int node) const;
  // The pen width of the edge from the node's parent to `node`: 1 + 8p.
  double edgeWidth(int node) const;
  // The node under `point` (widget coordinates): its index, -1 for none, -2 for the root.
  int nodeAt(const QPoint& point) const;

  // Collapses an expanded node with children or expands a collapsed one; nothing otherwise.
  void toggle(int node);
  void expandAll();
  void collapseAll();

  // The size of the whole visible tree, and its drawing (used by paintEvent and by figure
  // export, which draws the whole tree whatever part is scrolled into view).
  QSize contentSize() const { return drawn_; }
  void paintTree(QPainter& painter, const QRect& exposed = QRect()) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

  // A symbol or text with whitespace made visible: space ␣, line break ⏎, tab ⇥.
  static QString visibleText(const QString& text);

  static constexpr int kCollapseAbove = 1500;

 signals:
  // A node was collapsed or expanded (the visible tree and its size changed).
  void layoutChanged();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Node {
    QString symbol;  // visible form
    double probability = 0.0;
    double cumulativeLogProb = 0.0;
    int depth = 1;
    int parent = -1;
    std::vector<int> children;
    bool collapsed = false;
    bool visible = true;
    QRectF rect;
  };

  // The boxes' sizes from the labels and font: once per tree, not per resize.
  void measure();
  // Where every shown node goes, at the column gap the width allows.
  void relayout();
  int deepestShown() const;
  double placeSubtree(int node, int depth, double& nextRow);
  QRectF boxAt(int depth, double row) const;
  QString pathText(int node) const;
  void drawNode(QPainter& painter, const QRectF& rect, const QString& text, double probability,
                bool hasChildren, bool collapsed) const;

  QString context_;
  std::vector<Node> nodes_;
  std::vector<int> rootChildren_;
  QRectF rootRect_;
  QColor colour_{31, 119, 180};
  QSize content_;  // at the narrowest column gap: the canvas' minimum size
  QSize drawn_;    // at the gap in use
  int boxWidth_ = 80;
  int rootWidth_ = 80;
  int rowHeight_ = 20;
  // The gap between columns: at least room for the edges, more when the view is wider than
  // the tree, so that the tree spreads over the width it has.
  double columnGap_ = 56;
};

}  // namespace mrnn::widgets
