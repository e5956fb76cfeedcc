#pragma once

#include <QColor>
#include <QString>

#include "engine/config/cell_type.h"
#include "engine/config/model_config.h"

namespace mrnn::widgets {

// What the composer says about each zoo cell: a display name and its equations, in
// Unicode. This is the one place the composer keeps equation text; the paper and the
// parameter formula come from the engine (cellTypeDescription, cellParameterFormula), the
// same sources the model summary panel's tooltips use.
struct CellInfo {
  engine::CellType type;
  QString displayName;  // "mLSTM"
  QString equations;    // several lines, monospace-friendly
};

const CellInfo& cellInfo(engine::CellType type);
QString cellDisplayName(engine::CellType type);
QString cellEquations(engine::CellType type);
// The equations of one layer as configured: a GRU with reset_after reads PyTorch's candidate.
QString layerEquations(const engine::LayerConfig& layer);
// The engine's one-line description split in two: "Multiplicative LSTM, shared m" and
// "Krause et al. 2016, eqs. 17-21".
QString cellSummary(engine::CellType type);
QString cellPaper(engine::CellType type);
// One accent colour per family (LSTM family blue, GRU family violet, plain RNNs teal), so
// the palette and the canvas agree.
QColor cellFamilyColour(engine::CellType type);
// Description, paper and parameter formula, for tooltips.
QString cellToolTip(engine::CellType type);

// The equations of the blocks around the layers.
QString inputEquations(const engine::InputConfig& input);
QString outputEquations(const engine::OutputConfig& output);
// The notation the equation texts use.
QString equationNotation();

}  // namespace mrnn::widgets
