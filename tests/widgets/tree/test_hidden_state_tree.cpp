#include <qcustomplot.h>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>

#include "engine/probing/tree_result.h"
#include "file_head.h"
#include "trained_project.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/export/export_bar.h"
#include "widgets/project/project_document.h"
#include "widgets/tree/hidden_state_tree_panel.h"
#include "widgets/tree/spread_plot.h"
#include "widgets/tree/tree_canvas.h"

using namespace mrnn;
using namespace mrnn::widgets;

namespace {

engine::TreeNode makeNode(const std::string& text, double p, int64_t depth, int64_t parent,
                          std::vector<float> hidden, double parentLog = 0.0) {
  engine::TreeNode node;
  node.symbol = static_cast<int64_t>(text.empty() ? 0 : static_cast<unsigned char>(text[0]));
  node.text = text;
  node.probability = p;
  node.cumulativeLogProb = parentLog + std::log(p);
  node.depth = depth;
  node.parent = parent;
  node.hidden = std::move(hidden);
  return node;
}

// Depth 2: the root's children "b" 0.4 and "a" 0.6 (stored in that order, so the view must
// sort), a's children "y" 0.3 and "x" 0.7. Siblings a=(3,0), b=(0,4): euclidean 5, cosine
// distance 1 (orthogonal); x=(6,8), y=(3,4): euclidean 5, cosine distance 0 (parallel).
// `scale` multiplies the hidden states (distances scale, cosines do not).
engine::TreeResult handTree(float scale = 1.0f, const std::string& bText = "b") {
  engine::TreeResult tree;
  tree.context = {1, 2, 3, 4};
  tree.rootHidden = {0.0f, 0.0f};
  tree.nodes.push_back(makeNode(bText, 0.4, 1, -1, {0.0f, 4.0f * scale}));
  tree.nodes.push_back(makeNode("a", 0.6, 1, -1, {3.0f * scale, 0.0f}));
  tree.nodes.push_back(makeNode("y", 0.3, 2, 1, {3.0f * scale, 4.0f * scale}, std::log(0.6)));
  tree.nodes.push_back(makeNode("x", 0.7, 2, 1, {6.0f * scale, 8.0f * scale}, std::log(0.6)));
  tree.spread = engine::treeSpread(tree.nodes, 2);
  return tree;
}

// first x (branching)^(depth-1) nodes, probabilities falling within each sibling group.
engine::TreeResult wideTree(int first, int branching, int depth) {
  engine::TreeResult tree;
  tree.context = {1};
  std::vector<int64_t> level = {-1};
  for (int d = 1; d <= depth; ++d) {
    std::vector<int64_t> next;
    for (int64_t parent : level) {
      const int count = d == 1 ? first : branching;
      for (int c = 0; c < count; ++c) {
        const double p = 1.0 / (c + 2);
        next.push_back(static_cast<int64_t>(tree.nodes.size()));
        tree.nodes.push_back(makeNode(std::string(1, static_cast<char>('a' + c % 26)), p, d, parent,
                                      {static_cast<float>(c), 1.0f}));
      }
    }
    level = next;
  }
  tree.spread = engine::treeSpread(tree.nodes, depth);
  return tree;
}

QString readAll(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

// The painted thickness of a horizontal line crossing column `x` of `image` near `y`.
int thicknessAt(const QImage& image, int x, int y) {
  int count = 0;
  for (int row = std::max(0, y - 12); row < std::min(image.height(), y + 13); ++row) {
    if (qGray(image.pixel(x, row)) < 245) ++count;
  }
  return count;
}

}  // namespace

class HiddenStateTreeTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    trained_ =
        std::make_unique<test::TrainedProject>(test::tinyProjectYaml(8), test::lexiconText(3000));
    QVERIFY2(trained_->ok(), qPrintable(trained_->error()));
  }

  void handTreeHasTheKnownSpread() {
    // The answers the view tests below rely on.
    const engine::TreeResult tree = handTree();
    QCOMPARE(tree.spread.size(), size_t{2});
    QCOMPARE(tree.spread[0].meanEuclidean, 5.0);
    QCOMPARE(tree.spread[0].meanCosine, 1.0);
    QCOMPARE(tree.spread[1].meanEuclidean, 5.0);
    QVERIFY(std::abs(tree.spread[1].meanCosine) < 1e-9);
  }

  void whitespaceIsVisible() {
    QCOMPARE(TreeCanvas::visibleText(" \n\t"), QString::fromUtf8("\u2423\u23CE\u21E5"));
    QCOMPARE(TreeCanvas::visibleText("ab"), QString("ab"));
  }

  void nodesAreLabelledAndSortedByProbability() {
    TreeCanvas canvas;
    canvas.setTree("The ", handTree());
    QCOMPARE(canvas.nodeCount(), 4);
    QCOMPARE(canvas.visibleNodeCount(), 4);
    QCOMPARE(canvas.nodeLabel(0), QString("b 0.40"));
    QCOMPARE(canvas.nodeLabel(1), QString("a 0.60"));
    QCOMPARE(canvas.nodeLabel(2), QString("y 0.30"));
    QCOMPARE(canvas.nodeLabel(3), QString("x 0.70"));
    QCOMPARE(canvas.children(-1), (std::vector<int>{1, 0}));
    QCOMPARE(canvas.children(1), (std::vector<int>{3, 2}));
    // Left to right by depth, most probable sibling on top, a parent midway between its
    // first and last child, the root left of everything.
    const QRect a = canvas.nodeRect(1), b = canvas.nodeRect(0);
    const QRect x = canvas.nodeRect(3), y = canvas.nodeRect(2);
    QCOMPARE(a.left(), b.left());
    QVERIFY(a.top() < b.top());
    QVERIFY(x.top() < y.top());
    QCOMPARE(x.left(), y.left());
    QVERIFY(x.left() > a.right());
    QVERIFY(canvas.rootRect().right() < a.left());
    QVERIFY(std::abs(a.center().y() - (x.center().y() + y.center().y()) / 2) <= 1);
    // Whole tree in the widget (spread over its width) and in the figure's size.
    QVERIFY(canvas.rect().contains(x));
    QVERIFY(QRect(QPoint(0, 0), canvas.contentSize()).contains(x));
    QVERIFY(QRect(QPoint(0, 0), canvas.contentSize()).contains(b));
    QVERIFY(canvas.sizeHint().width() <= canvas.width());
    QCOMPARE(canvas.nodeAt(x.center()), 3);
    QCOMPARE(canvas.nodeAt(canvas.rootRect().center()), -2);
    QCOMPARE(canvas.nodeAt(QPoint(1, 1)), -1);
  }

  void edgeWidthFollowsProbability() {
    TreeCanvas canvas;
    canvas.setTree("The ", handTree());
    for (int i = 0; i < 4; ++i) {
      const double p = handTree().nodes[static_cast<size_t>(i)].probability;
      QCOMPARE(canvas.edgeWidth(i), 1.0 + 8.0 * p);
    }
    QVERIFY(canvas.edgeWidth(3) > canvas.edgeWidth(1));  // x 0.7 > a 0.6

    // On screen: a chain root -> "a" (p 1) -> "x" (p 0.5) has horizontal edges (an only
    // child sits level with its parent), as thick as 9 and 5 px.
    engine::TreeResult chain;
    chain.context = {1};
    chain.nodes.push_back(makeNode("a", 1.0, 1, -1, {1.0f}));
    chain.nodes.push_back(makeNode("x", 0.5, 2, 0, {1.0f}));
    canvas.setTree("ctx", chain);
    canvas.resize(canvas.sizeHint());
    const QImage image = canvas.grab().toImage();
    const QRect root = canvas.rootRect(), a = canvas.nodeRect(0), x = canvas.nodeRect(1);
    const int first = thicknessAt(image, (root.right() + a.left()) / 2, a.center().y());
    const int second = thicknessAt(image, (a.right() + x.left()) / 2, x.center().y());
    QVERIFY2(first >= 8 && first <= 10, qPrintable(QString::number(first)));
    QVERIFY2(second >= 4 && second <= 6, qPrintable(QString::number(second)));
  }

  void collapsingHidesTheSubtree() {
    TreeCanvas canvas;
    canvas.setTree("The ", handTree());
    canvas.resize(canvas.sizeHint());
    const int fullHeight = canvas.sizeHint().height();
    QSignalSpy changed(&canvas, &TreeCanvas::layoutChanged);
    canvas.toggle(1);  // "a"
    QCOMPARE(changed.size(), 1);
    QVERIFY(canvas.isCollapsed(1));
    QCOMPARE(canvas.visibleNodeCount(), 2);
    QVERIFY(canvas.nodeRect(3).isEmpty());
    QVERIFY(!canvas.isNodeVisible(2));
    QVERIFY(canvas.sizeHint().height() < fullHeight);
    QVERIFY(canvas.sizeHint().width() < canvas.nodeRect(1).right() + 100);
    QVERIFY(canvas.nodeToolTip(1).contains("click to expand"));
    canvas.toggle(1);
    QCOMPARE(canvas.visibleNodeCount(), 4);
    QCOMPARE(canvas.sizeHint().height(), fullHeight);

    // A leaf does not toggle; a click on a node with children does.
    canvas.toggle(0);
    QCOMPARE(canvas.visibleNodeCount(), 4);
    QTest::mouseClick(&canvas, Qt::LeftButton, {}, canvas.nodeRect(1).center());
    QCOMPARE(canvas.visibleNodeCount(), 2);
    QTest::mouseClick(&canvas, Qt::LeftButton, {}, canvas.nodeRect(0).center());
    QCOMPARE(canvas.visibleNodeCount(), 2);
    canvas.expandAll();
    QCOMPARE(canvas.visibleNodeCount(), 4);
    canvas.collapseAll();
    QCOMPARE(canvas.visibleNodeCount(), 2);
  }

  void toolTipGivesPathAndProbabilities() {
    TreeCanvas canvas;
    canvas.setTree("The ", handTree());
    const QString tip = canvas.nodeToolTip(3);  // "x" under "a"
    QVERIFY2(tip.contains(QString::fromUtf8("The\u2423<b>ax</b>")), qPrintable(tip));
    QVERIFY2(tip.contains("p = 0.7 "), qPrintable(tip));
    QVERIFY2(tip.contains("cumulative p = 0.42 "), qPrintable(tip));
    QVERIFY2(tip.contains("depth 2"), qPrintable(tip));
    QVERIFY(canvas.nodeToolTip(1).contains("click to collapse"));
    QVERIFY(!canvas.nodeToolTip(0).contains("click"));
  }

  void largeTreeScrollsAndGrowsWithLeaves() {
    ProjectDocument document;
    HiddenStateTreePanel panel(document);
    panel.resize(1000, 700);
    panel.show();
    const engine::TreeResult tree = wideTree(16, 4, 3);  // 16 + 64 + 256 nodes
    QCOMPARE(tree.nodes.size(), size_t{336});
    panel.showTrees("x", tree, "wide");
    TreeCanvas* canvas = panel.canvas(0);
    QCOMPARE(canvas->visibleNodeCount(), 336);
    const int allLeaves = canvas->sizeHint().height();
    auto* scroll = qobject_cast<QScrollArea*>(canvas->parentWidget()->parentWidget());
    QVERIFY(scroll);
    QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
    panel.collapseAll();
    QCOMPARE(canvas->visibleNodeCount(), 16);
    // 256 leaves against 16 rows: the height follows the number of visible leaves.
    const double ratio = static_cast<double>(allLeaves) / canvas->sizeHint().height();
    QVERIFY2(ratio > 12.0 && ratio < 20.0, qPrintable(QString::number(ratio)));
    panel.expandAll();
    QCOMPARE(canvas->visibleNodeCount(), 336);
  }

  void spreadPlotShowsTheDepthSpread() {
    ProjectDocument document;
    HiddenStateTreePanel panel(document);
    QVERIFY(!panel.treeExportBar()->figureButton()->isEnabled());
    panel.showTrees("The ", handTree(), "mLSTM");
    SpreadPlot* spread = panel.spreadPlot();
    QCOMPARE(spread->modelCount(), 1);
    QCPGraph* euclidean = spread->euclideanGraph(0);
    QCPGraph* cosine = spread->cosineGraph(0);
    QCOMPARE(euclidean->dataCount(), 2);
    QCOMPARE(euclidean->data()->at(0)->key, 1.0);
    QCOMPARE(euclidean->data()->at(0)->value, 5.0);
    QCOMPARE(euclidean->data()->at(1)->key, 2.0);
    QCOMPARE(euclidean->data()->at(1)->value, 5.0);
    QCOMPARE(cosine->data()->at(0)->value, 1.0);
    QVERIFY(std::abs(cosine->data()->at(1)->value) < 1e-9);
    QCOMPARE(euclidean->valueAxis(), spread->plot()->yAxis);
    QCOMPARE(cosine->valueAxis(), spread->plot()->yAxis2);
    QCOMPARE(cosine->pen().style(), Qt::DashLine);
    QCOMPARE(euclidean->pen().color(), panel.modelColour(0));
    QCOMPARE(spread->plot()->legend->itemCount(), 1);
    QCOMPARE(euclidean->name(), QString("mLSTM"));

    QTableWidget* table = spread->table();
    QCOMPARE(table->rowCount(), 2);
    const QStringList first = {"mLSTM", "1", "2", "1", "5.000", "1.000"};
    const QStringList second = {"mLSTM", "2", "2", "1", "5.000", "0.000"};
    for (int column = 0; column < 6; ++column) {
      QCOMPARE(table->item(0, column)->text(), first[column]);
      QCOMPARE(table->item(1, column)->text(), second[column]);
    }
    QCOMPARE(table->item(0, 0)->foreground().color(), panel.modelColour(0));
    QVERIFY(panel.treeExportBar()->figureButton()->isEnabled());
    QVERIFY(panel.treeLabel(0)->text().contains("mLSTM"));
    QVERIFY(panel.treeLabel(0)->text().contains("4 nodes"));
  }

  void depthWithoutSiblingsHasNoPoint() {
    engine::TreeResult chain;
    chain.context = {1};
    chain.nodes.push_back(makeNode("a", 0.9, 1, -1, {1.0f}));
    chain.spread = engine::treeSpread(chain.nodes, 1);
    SpreadPlot plot;
    plot.setTrees({{"m", "", chain}}, {Qt::red});
    QCOMPARE(plot.euclideanGraph(0)->dataCount(), 0);
    QCOMPARE(plot.table()->item(0, 3)->text(), QString("0"));
    QCOMPARE(plot.table()->item(0, 4)->text(), QString::fromUtf8("\u2013"));
  }

  void aTallTreeKeepsItsRootInSightAndSpreadsOverTheWidth() {
    // 64 children at depth 1, 3 under each: 192 rows, far taller than the view.
    QScrollArea scroll;
    auto* canvas = new TreeCanvas;
    scroll.setWidget(canvas);
    scroll.setWidgetResizable(true);
    scroll.resize(900, 300);
    scroll.show();
    QVERIFY(QTest::qWaitForWindowExposed(&scroll));
    canvas->setTree("ctx", wideTree(64, 3, 2));
    QTest::qWait(20);
    QVERIFY(canvas->height() > 3000);
    // The root is drawn near the top, beside its first child, not midway down the tree.
    QVERIFY2(canvas->rootRect().bottom() < 250,
             qPrintable(QString::number(canvas->rootRect().y())));
    // The columns spread over the view's width rather than bunching at its left.
    int right = 0;
    for (int node = 0; node < canvas->nodeCount(); ++node) {
      right = std::max(right, canvas->nodeRect(node).right());
    }
    const int view = scroll.viewport()->width();
    QVERIFY2(right > view * 0.8 && right <= view,
             qPrintable(QStringLiteral("%1 of %2").arg(right).arg(view)));
    // The figure holds the whole tree as drawn.
    QVERIFY(canvas->contentSize().width() >= right);
  }

  void spreadLegendAndTitlesStayClearOfTheCurves() {
    SpreadPlot plot;
    plot.resize(520, 220);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    // Before any tree the empty legend takes no width from the axes.
    plot.plot()->replot();
    QVERIFY(plot.plot()->axisRect()->rect().width() > plot.plot()->width() / 2);
    plot.setTrees(
        {{"Run 4 · mlstm · best", "", handTree()}, {"Run 3 · lstm · best", "", handTree(2)}},
        {Qt::blue, Qt::red});
    plot.plot()->replot();
    QCustomPlot* chart = plot.plot();
    QCOMPARE(chart->axisRect()->insetLayout()->elementCount(), 0);
    QVERIFY(!chart->legend->outerRect().intersects(chart->axisRect()->rect()));
    // Each axis title fits the axis' length: "(solid)" and "(dashed)" are not cut.
    const QFontMetrics metrics(chart->yAxis->labelFont());
    QVERIFY(metrics.horizontalAdvance(chart->yAxis->label()) < chart->axisRect()->height());
    QVERIFY(metrics.horizontalAdvance(chart->yAxis2->label()) < chart->axisRect()->height());
  }

  void smallDistancesKeepThreeDigits() {
    SpreadPlot plot;
    plot.setTrees({{"m", "", handTree(0.000246f)}}, {Qt::red});
    QCOMPARE(plot.table()->item(0, 4)->text(), QString("0.00123"));  // 5 x 0.000246
    QCOMPARE(plot.table()->item(0, 5)->text(), QString("1.000"));
    QCOMPARE(plot.table()->item(1, 5)->text(), QString("0.000"));  // parallel: zero, not noise
  }

  void twoModelsSideBySide() {
    ProjectDocument document;
    HiddenStateTreePanel panel(document);
    panel.resize(1000, 700);
    panel.show();
    panel.showTrees("The ", handTree(), "mLSTM", handTree(2.0f), "LSTM");
    QVERIFY(panel.canvas(0)->isVisible());
    QVERIFY(panel.canvas(1)->isVisible());
    QCOMPARE(panel.canvas(1)->visibleNodeCount(), 4);
    QVERIFY(panel.canvas(1)->colour() != panel.canvas(0)->colour());
    // Side by side, sharing the width: B right of A.
    const QWidget* viewA = panel.canvas(0)->parentWidget();
    const QWidget* viewB = panel.canvas(1)->parentWidget();
    QVERIFY2(viewA->width() > 300 && viewB->width() > 300,
             qPrintable(QString("%1 %2").arg(viewA->width()).arg(viewB->width())));
    QVERIFY(panel.canvas(1)->mapTo(&panel, QPoint()).x() >
            panel.canvas(0)->mapTo(&panel, QPoint()).x() + panel.canvas(0)->width() / 2);
    SpreadPlot* spread = panel.spreadPlot();
    QCOMPARE(spread->modelCount(), 2);
    QCOMPARE(spread->euclideanGraph(1)->data()->at(0)->value, 10.0);  // distances doubled
    QCOMPARE(spread->cosineGraph(1)->data()->at(0)->value, 1.0);      // cosines not
    QCOMPARE(spread->euclideanGraph(1)->pen().color(), panel.modelColour(1));
    QCPLegend* legend = spread->plot()->legend;
    QCOMPARE(legend->itemCount(), 2);
    QCOMPARE(legend->itemWithPlottable(spread->euclideanGraph(0))->plottable()->name(),
             QString("mLSTM"));
    QCOMPARE(legend->itemWithPlottable(spread->euclideanGraph(1))->plottable()->name(),
             QString("LSTM"));
    QCOMPARE(spread->table()->rowCount(), 4);
    QCOMPARE(spread->table()->item(2, 0)->text(), QString("LSTM"));
    QCOMPARE(spread->table()->item(2, 4)->text(), QString("10.000"));
    QVERIFY(panel.treeLabel(1)->text().contains("LSTM"));
    QCOMPARE(panel.trees().size(), size_t{2});

    // Back to one model: B's column goes.
    panel.showTrees("The ", handTree(), "mLSTM");
    QVERIFY(!panel.canvas(1)->isVisible());
    QCOMPARE(spread->modelCount(), 1);
    QCOMPARE(spread->plot()->graphCount(), 2);
  }

  void exportsFiguresAndCsv() {
    ProjectDocument document;
    HiddenStateTreePanel panel(document);
    panel.resize(1000, 700);
    panel.show();
    panel.showTrees("The ", handTree(), "mLSTM", handTree(2.0f, ","), "LSTM, small");
    QTemporaryDir dir;
    const std::map<QString, QByteArray> magic = {{"png", QByteArray("\x89PNG", 4)},
                                                 {"svg", QByteArray("<?xml")},
                                                 {"pdf", QByteArray("%PDF")}};
    for (const auto& [suffix, bytes] : magic) {
      const QString tree = dir.filePath("tree." + suffix);
      QCOMPARE(panel.treeExportBar()->saveFigureTo(tree), QString());
      QCOMPARE(test::fileHead(tree, bytes.size()), bytes);
      const QString plot = dir.filePath("spread." + suffix);
      QCOMPARE(panel.spreadExportBar()->saveFigureTo(plot), QString());
      QCOMPARE(test::fileHead(plot, bytes.size()), bytes);
    }
    // The tree figure holds both trees whole, at twice the size for print.
    const QImage image(dir.filePath("tree.png"));
    const int trees =
        panel.canvas(0)->contentSize().width() + panel.canvas(1)->contentSize().width();
    QVERIFY2(image.width() >= 2 * trees, qPrintable(QString::number(image.width())));

    QCOMPARE(panel.treeExportBar()->saveCsvTo(dir.filePath("tree.csv")), QString());
    const QStringList rows = readAll(dir.filePath("tree.csv")).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 9);
    QCOMPARE(rows[0], QString("model,index,depth,parent,symbol,probability,cumulative_log_prob"));
    QVERIFY2(rows[2].startsWith("mLSTM,1,1,-1,a,0.6,-0.5108256"), qPrintable(rows[2]));
    QVERIFY2(rows[4].startsWith("mLSTM,3,2,1,x,0.7,-0.8675005"), qPrintable(rows[4]));
    QVERIFY2(rows[5].startsWith("\"LSTM, small\",0,1,-1,\",\",0.4,"), qPrintable(rows[5]));

    QCOMPARE(panel.spreadExportBar()->saveCsvTo(dir.filePath("spread.csv")), QString());
    const QStringList spread = readAll(dir.filePath("spread.csv")).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(spread.size(), 5);
    QCOMPARE(spread[0], QString("model,depth,nodes,groups,pairs,mean_euclidean,mean_cosine"));
    QVERIFY2(spread[1].startsWith("mLSTM,1,2,1,1,5,1"), qPrintable(spread[1]));
  }

  void realTreeOnATrainedModel() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    HiddenStateTreePanel panel(document);
    panel.resize(1300, 900);
    panel.show();
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setComparisonCheckpoint(QString());
    panel.setContext("the ");
    panel.setDepth(2);
    panel.setBranching(3);
    panel.setFirstLevelCap(8);
    panel.setMass(1.0);  // no mass limit: exactly 8 + 8 x 3 nodes
    QSignalSpy finished(&panel, &HiddenStateTreePanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(panel.jobBar()->isRunning());
    QVERIFY(finished.wait(20000));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QCOMPARE(panel.trees().size(), size_t{1});
    const engine::TreeResult& tree = panel.trees()[0].tree;
    QCOMPARE(tree.nodes.size(), size_t{32});
    QCOMPARE(panel.canvas(0)->visibleNodeCount(), 32);
    QCOMPARE(panel.shownContext(), QString("the "));

    // Probabilities of each sibling group sum to at most 1; the first level comes sorted.
    std::map<int64_t, double> groupSums;
    for (const auto& node : tree.nodes) groupSums[node.parent] += node.probability;
    for (const auto& [parent, sum] : groupSums)
      QVERIFY2(sum <= 1.0 + 1e-9, qPrintable(QString::number(sum)));
    QCOMPARE(groupSums.size(), size_t{9});
    const std::vector<int> first = panel.canvas(0)->children(-1);
    QCOMPARE(first.size(), size_t{8});
    for (size_t i = 1; i < first.size(); ++i) {
      QVERIFY(tree.nodes[static_cast<size_t>(first[i - 1])].probability >=
              tree.nodes[static_cast<size_t>(first[i])].probability);
      QVERIFY(panel.canvas(0)->nodeRect(first[i - 1]).top() <
              panel.canvas(0)->nodeRect(first[i]).top());
    }
    // The plot shows the tree's own spread.
    QCPGraph* euclidean = panel.spreadPlot()->euclideanGraph(0);
    QCOMPARE(euclidean->dataCount(), 2);
    for (int k = 0; k < 2; ++k) {
      QCOMPARE(euclidean->data()->at(k)->value, tree.spread[static_cast<size_t>(k)].meanEuclidean);
      QVERIFY(tree.spread[static_cast<size_t>(k)].meanEuclidean > 0.0);
    }

    // The same checkpoint against itself grows the same tree twice.
    panel.setComparisonCheckpoint(trained_->bestCheckpoint());
    panel.setMass(0.9);
    finished.clear();
    panel.runAnalysis();
    QVERIFY(finished.wait(20000));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QCOMPARE(panel.trees().size(), size_t{2});
    const engine::TreeResult& a = panel.trees()[0].tree;
    const engine::TreeResult& b = panel.trees()[1].tree;
    QCOMPARE(a.nodes.size(), b.nodes.size());
    for (size_t i = 0; i < a.nodes.size(); ++i) {
      QCOMPARE(a.nodes[i].symbol, b.nodes[i].symbol);
      QCOMPARE(a.nodes[i].probability, b.nodes[i].probability);
      QCOMPARE(a.nodes[i].hidden, b.nodes[i].hidden);
    }
    // With a mass of 0.9 a group stops as soon as it holds 0.9, and never exceeds top-k.
    std::map<int64_t, std::vector<double>> groups;
    for (const auto& node : a.nodes) {
      if (node.depth == 2) groups[node.parent].push_back(node.probability);
    }
    for (const auto& [parent, probabilities] : groups) {
      QVERIFY(!probabilities.empty() && probabilities.size() <= 3);
      double before = 0.0;
      for (size_t i = 0; i + 1 < probabilities.size(); ++i) before += probabilities[i];
      QVERIFY(before < 0.9);
    }
    QCOMPARE(panel.spreadPlot()->modelCount(), 2);
    QVERIFY(panel.canvas(1)->isVisible());
    QVERIFY(panel.canvas(1)->parentWidget()->width() > 400);  // the scroll area's viewport
    // The same label twice is told apart.
    QCOMPARE(QString::fromStdString(panel.trees()[1].label),
             QString::fromStdString(panel.trees()[0].label) + " (comparison)");
    QCOMPARE(panel.canvas(1)->visibleNodeCount(), static_cast<int>(b.nodes.size()));

    // What a user sees (after the pending layout, as on screen).
    QTest::qWait(50);
    QVERIFY(panel.grab().save("/tmp/tree.png"));
  }

  void unknownContextSymbolIsExplained() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    HiddenStateTreePanel panel(document);
    panel.setContext("Zebra");  // the lexicon has no capitals and no 'z'
    QSignalSpy failed(panel.jobBar(), &AnalysisJobBar::failed);
    panel.runAnalysis();
    QVERIFY(failed.wait(20000));
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains("model A") && reason.contains("not in the vocabulary"),
             qPrintable(reason));
    QVERIFY(panel.trees().empty());
  }

  void cancelling() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    HiddenStateTreePanel panel(document);
    panel.showTrees("The ", handTree(), "earlier");
    panel.setContext("the ");
    panel.setDepth(4);
    panel.setBranching(50);
    panel.setFirstLevelCap(512);
    panel.setMass(1.0);
    QSignalSpy finished(&panel, &HiddenStateTreePanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(panel.jobBar()->isRunning());
    auto* run = panel.findChild<QPushButton*>("runTreeButton");
    QVERIFY(run && !run->isEnabled());
    panel.jobBar()->cancelButton()->click();
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY2(panel.jobBar()->status().contains("cancelled"), qPrintable(panel.jobBar()->status()));
    // The earlier result stays.
    QCOMPARE(panel.trees().size(), size_t{1});
    QCOMPARE(panel.trees()[0].label, std::string("earlier"));
    QVERIFY(run->isEnabled());
  }

  void nothingToRunWithoutAModel() {
    ProjectDocument document;
    HiddenStateTreePanel panel(document);
    auto* run = panel.findChild<QPushButton*>("runTreeButton");
    QVERIFY(run);
    QVERIFY(!run->isEnabled());
    QVERIFY(run->toolTip().contains("train a run"));
  }

 private:
  std::unique_ptr<test::TrainedProject> trained_;
};

QTEST_MAIN(HiddenStateTreeTest)
#include "test_hidden_state_tree.moc"
