#pragma once

#include <cstddef>

#include "engine/config/model_config.h"

namespace mrnn::widgets {

// The composer's structural edits of the layer stack, as pure functions on a copy of the
// model (the panel hands the result to ProjectDocument::editModel, which makes it undoable).
// Indices out of range leave the model unchanged.

// A new layer of `type` sized like its neighbour (the layer below, else the one above, else
// 256), so that adding a layer does not break the widths around it.
engine::LayerConfig newLayer(const engine::ModelConfig& model, size_t position,
                             engine::CellType type);
// Inserts before `position` (position == layers.size() appends).
engine::ModelConfig insertLayer(const engine::ModelConfig& model, size_t position,
                                engine::CellType type);
engine::ModelConfig removeLayer(const engine::ModelConfig& model, size_t index);
// The copy goes right above the original.
engine::ModelConfig duplicateLayer(const engine::ModelConfig& model, size_t index);
// Moves layer `from` so that it ends at index `to`.
engine::ModelConfig moveLayer(const engine::ModelConfig& model, size_t from, size_t to);

}  // namespace mrnn::widgets
