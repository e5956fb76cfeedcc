#pragma once

#include <QColor>
#include <cstddef>

#include <qcustomplot.h>

namespace mrnn::widgets {

// The n-th series' colour and marker in scatter plots where series are categories (cell types,
// an experiment's groups): eight colour-blind-safe colours, each with its own shape, so that a
// series stays distinct in greyscale prints too. Wraps around after eight.
QColor seriesColour(size_t index);
QCPScatterStyle::ScatterShape seriesShape(size_t index);

}  // namespace mrnn::widgets
