#include "widgets/plot_legend.h"

#include <qcustomplot.h>

namespace mrnn::widgets {

void placeLegendInRow(QCustomPlot* plot, int row) {
  // A maximum the layout takes as set (QWIDGETSIZE_MAX itself means "unset").
  constexpr int kUnbounded = 1 << 20;
  QCPLegend* legend = plot->legend;
  legend->setVisible(true);
  legend->setBrush(Qt::NoBrush);
  legend->setBorderPen(Qt::NoPen);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot->axisRect()->insetLayout()->take(legend);
  plot->axisRect()->insetLayout()->simplify();
  plot->plotLayout()->insertRow(row);
  plot->plotLayout()->addElement(row, 0, legend);
  plot->plotLayout()->setRowStretchFactor(row, 0.001);
  legend->setMaximumSize(kUnbounded, kUnbounded);
}

}  // namespace mrnn::widgets
