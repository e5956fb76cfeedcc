#include "widgets/training/seed_band.h"

#include <qcustomplot.h>

namespace mrnn::widgets {

SeedBand::SeedBand(QCustomPlot* plot, const QColor& colour) {
  upper_ = plot->addGraph();
  lower_ = plot->addGraph();
  for (QCPGraph* graph : {upper_, lower_}) {
    graph->removeFromLegend();
    graph->setSelectable(QCP::stNone);
  }
  lower_->setChannelFillGraph(upper_);
  setColour(colour);
}

SeedBand::~SeedBand() {
  // The plot may already be gone with its graphs (the charts' destructor).
  for (QCPGraph* graph : {lower_, upper_}) {
    if (graph && graph->parentPlot()) graph->parentPlot()->removeGraph(graph);
  }
}

void SeedBand::setData(const QVector<double>& keys, const QVector<double>& lower,
                       const QVector<double>& upper) {
  lower_->setData(keys, lower, true);
  upper_->setData(keys, upper, true);
}

void SeedBand::setColour(const QColor& colour) {
  QColor fill = colour;
  fill.setAlpha(50);
  QColor edge = colour;
  edge.setAlpha(90);
  for (QCPGraph* graph : {upper_, lower_}) graph->setPen(QPen(edge, 0.8));
  lower_->setBrush(fill);
}

void SeedBand::setVisible(bool visible) {
  lower_->setVisible(visible);
  upper_->setVisible(visible);
}

}  // namespace mrnn::widgets
