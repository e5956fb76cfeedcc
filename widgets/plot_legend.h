#pragma once

class QCustomPlot;

namespace mrnn::widgets {

// Moves `plot`'s legend out of the axes into a row of its own at `row` of the plot layout
// (rows at and below it move down), borderless and filled left to right, so that it never
// covers a curve; the row keeps only the legend's height. QCustomPlot caps a layout column
// at the maximum width of its elements, and an empty legend's is its own empty width: its
// maximum is lifted, or a plot with nothing to list yet would squeeze its axes to nothing.
void placeLegendInRow(QCustomPlot* plot, int row);

}  // namespace mrnn::widgets
