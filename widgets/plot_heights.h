#pragma once

namespace mrnn::widgets {

// The least height a panel gives a plot: its title, axes and a readable band of data. Small
// enough that the panels below the composer fit a 720-pixel window without scrolling; their
// splitters give plots more wherever there is room.
constexpr int kLeastPlotHeight = 110;

}  // namespace mrnn::widgets
