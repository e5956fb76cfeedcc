// The legend of the training charts and what it does: hiding and showing a run (its lines
// and a seed group's band) and laying its entries out in rows. Beside training_charts.cpp.
#include <qcustomplot.h>

#include <algorithm>

#include "widgets/training/rank_graphs.h"
#include "widgets/training/seed_band.h"
#include "widgets/training/training_charts.h"

namespace mrnn::widgets {

void TrainingCharts::setRunVisible(int index, bool visible) {
  RunGraphs* run = runAt(index);
  if (!run) return;
  run->visible = visible;
  for (QCPGraph* graph : run->graphs) graph->setVisible(visible);
  for (SeedBand* band : {run->lossBand.get(), run->validationBand.get()}) {
    if (band) band->setVisible(visible);
  }
  if (index == 0) liveRanks_->setVisible(visible);
  QCPGraph* named = run->graphs[static_cast<size_t>(Series::LossSmoothed)];
  if (QCPAbstractLegendItem* item = plot(Chart::Loss)->legend->itemWithPlottable(named)) {
    item->setTextColor(visible ? QColor(0x20, 0x20, 0x20) : QColor(0xa8, 0xa8, 0xa8));
  }
  emit changed();
}

bool TrainingCharts::isRunVisible(int index) const {
  const RunGraphs* run = runAt(index);
  return run && run->visible;
}

void TrainingCharts::onLegendClick(QCPGraph* graph) {
  for (int index = 0; index <= overlayCount(); ++index) {
    const RunGraphs* run = runAt(index);
    if (run->graphs[static_cast<size_t>(Series::LossSmoothed)] != graph) continue;
    setRunVisible(index, !run->visible);
    // The axes fit what is shown now, unless the user has zoomed in on something.
    replot();
    return;
  }
}

void TrainingCharts::layOutLegend() {
  // As many entries a row as the chart's width has room for, at the widest entry's width:
  // no run's name is cut short by its neighbour.
  QCustomPlot* loss = plot(Chart::Loss);
  QCPLegend* legend = loss->legend;
  const QFontMetrics metrics(legend->font());
  int widest = 0;
  for (int i = 0; i < legend->itemCount(); ++i) {
    if (auto* entry = qobject_cast<QCPPlottableLegendItem*>(legend->item(i))) {
      widest = std::max(widest, metrics.horizontalAdvance(entry->plottable()->name()));
    }
  }
  const QMargins margins = legend->itemCount() > 0 ? legend->item(0)->margins() : QMargins();
  const int entryWidth = widest + legend->iconSize().width() + legend->iconTextPadding() +
                         margins.left() + margins.right() + legend->columnSpacing();
  const int columns = std::clamp(loss->width() / std::max(entryWidth, 1), 1, 5);
  if (legend->wrap() != columns) legend->setWrap(columns);
}

}  // namespace mrnn::widgets
