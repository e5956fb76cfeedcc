#pragma once

namespace mrnn::widgets {

// The least height a panel gives a plot: its title, axes and a readable band of data. Small
// enough that the state tree, masking and size panels fit beside the composer in a 720-pixel
// window without scrolling; their splitters give plots more wherever there is room.
constexpr int kLeastPlotHeight = 110;

// The least height of a plot in a panel of two stacked views (gates: the heatmap over the
// coloured text; surprisal: the text over the recovery curves), which fits a 720-pixel window
// only when the panels below have it (F11) and scrolls beside the composer: there the plot
// keeps a height worth scrolling to.
constexpr int kLeastStackedPlotHeight = 200;

}  // namespace mrnn::widgets
