#include "widgets/tree/spread_plot.h"

#include <qcustomplot.h>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QTableWidget>
#include <algorithm>
#include <cmath>
#include <map>

#include "widgets/plot_heights.h"
#include "widgets/plot_legend.h"

namespace mrnn::widgets {

namespace {

enum Column { kModel, kDepth, kNodes, kGroups, kEuclidean, kCosine, kColumns };

// Three decimals, or three significant digits for small distances (cosine distances between
// nearby states are often ~1e-3); numerical noise around zero reads as zero.
QString distanceText(double value) {
  if (std::abs(value) < 1e-6) return QStringLiteral("0.000");
  if (value >= 0.1) return QString::number(value, 'f', 3);
  return QString::number(value, 'g', 3);
}

QTableWidgetItem* numberItem(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

SpreadPlot::SpreadPlot(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("spreadPlot"));
  plot_->setMinimumSize(320, kLeastPlotHeight);
  plot_->setToolTip(
      tr("Per depth, how far apart the hidden states of one node's children lie, averaged over "
         "the nodes of that depth: multiplicative models fan out more per input symbol"));
  plot_->xAxis->setLabel(tr("depth"));
  // Short titles: the heading above says what is averaged, and a short plot keeps them whole.
  plot_->yAxis->setLabel(tr("euclidean (solid)"));
  plot_->yAxis2->setLabel(tr("cosine (dashed)"));
  plot_->yAxis2->setVisible(true);
  QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->setRange(0.5, 2.5);
  plot_->yAxis->setRange(0.0, 1.0);
  plot_->yAxis2->setRange(0.0, 1.0);
  // The legend goes under the axes, in one row, where it cannot cover a curve.
  placeLegendInRow(plot_, 1);
  plot_->legend->setColumnSpacing(16);
  plot_->legend->setMargins(QMargins(6, 0, 6, 2));

  table_ = new QTableWidget(0, kColumns, this);
  table_->setObjectName(QStringLiteral("spreadTable"));
  table_->setHorizontalHeaderLabels(
      {tr("Model"), tr("Depth"), tr("Nodes"), tr("Groups"), tr("Euclidean"), tr("Cosine")});
  table_->horizontalHeaderItem(kGroups)->setToolTip(
      tr("Nodes of the depth above with at least two children (sibling groups measured)"));
  table_->horizontalHeaderItem(kEuclidean)
      ->setToolTip(
          tr("Mean over sibling groups of the mean pairwise euclidean distance of hidden states"));
  table_->horizontalHeaderItem(kCosine)->setToolTip(
      tr("Mean over sibling groups of the mean pairwise cosine distance (1 - cos)"));
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(kModel, QHeaderView::Stretch);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_, 3);
  layout->addWidget(table_, 2);
}

QCPGraph* SpreadPlot::euclideanGraph(int model) const {
  if (model < 0 || model >= models_) return nullptr;
  return plot_->graph(2 * model);
}

QCPGraph* SpreadPlot::cosineGraph(int model) const {
  if (model < 0 || model >= models_) return nullptr;
  return plot_->graph(2 * model + 1);
}

void SpreadPlot::clear() {
  plot_->clearGraphs();
  table_->setRowCount(0);
  models_ = 0;
  plot_->replot();
}

void SpreadPlot::setTrees(const std::vector<engine::LabelledTree>& trees,
                          const QList<QColor>& colours) {
  clear();
  double maxDepth = 1.0;
  double maxEuclidean = 0.0;
  double maxCosine = 0.0;
  for (size_t m = 0; m < trees.size(); ++m) {
    const engine::LabelledTree& labelled = trees[m];
    const QColor colour = colours.value(static_cast<int>(m), Qt::black);
    const QString label = QString::fromStdString(labelled.label);
    std::map<int64_t, int> nodesAtDepth;
    for (const auto& node : labelled.tree.nodes) ++nodesAtDepth[node.depth];

    QVector<double> depths, euclidean, cosine;
    for (const engine::DepthSpread& spread : labelled.tree.spread) {
      maxDepth = std::max(maxDepth, static_cast<double>(spread.depth));
      const int row = table_->rowCount();
      table_->insertRow(row);
      auto* model = new QTableWidgetItem(label);
      model->setForeground(colour);
      model->setToolTip(QString::fromStdString(labelled.checkpoint));
      table_->setItem(row, kModel, model);
      table_->setItem(row, kDepth, numberItem(QString::number(spread.depth)));
      table_->setItem(row, kNodes, numberItem(QString::number(nodesAtDepth[spread.depth])));
      table_->setItem(row, kGroups, numberItem(QString::number(spread.groups)));
      if (spread.groups == 0) {
        // No node of this depth has two children: there is no distance to show.
        table_->setItem(row, kEuclidean, numberItem(QStringLiteral("\u2013")));
        table_->setItem(row, kCosine, numberItem(QStringLiteral("\u2013")));
        continue;
      }
      table_->setItem(row, kEuclidean, numberItem(distanceText(spread.meanEuclidean)));
      table_->setItem(row, kCosine, numberItem(distanceText(spread.meanCosine)));
      depths.append(static_cast<double>(spread.depth));
      euclidean.append(spread.meanEuclidean);
      cosine.append(spread.meanCosine);
      maxEuclidean = std::max(maxEuclidean, spread.meanEuclidean);
      maxCosine = std::max(maxCosine, spread.meanCosine);
    }

    QCPGraph* solid = plot_->addGraph(plot_->xAxis, plot_->yAxis);
    solid->setName(label);
    solid->setPen(QPen(colour, 2.0));
    solid->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    solid->setData(depths, euclidean, true);
    QCPGraph* dashed = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    dashed->setName(tr("%1 (cosine)").arg(label));
    dashed->setPen(QPen(colour, 2.0, Qt::DashLine));
    dashed->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 7));
    dashed->setData(depths, cosine, true);
    // The legend names the models; the axis labels say which line style is which distance.
    dashed->removeFromLegend();
  }
  models_ = static_cast<int>(trees.size());
  plot_->xAxis->setRange(0.5, maxDepth + 0.5);
  const double headroom = 1.1;  // the top marker whole
  plot_->yAxis->setRange(0.0, maxEuclidean > 0.0 ? maxEuclidean * headroom : 1.0);
  plot_->yAxis2->setRange(0.0, maxCosine > 0.0 ? maxCosine * headroom : 1.0);
  plot_->replot();
}

}  // namespace mrnn::widgets
