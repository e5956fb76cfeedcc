#pragma once

#include <memory>

#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// Builds the cell a layer's type names, reading `inputSize`-wide vectors; `embeddingSize`
// is the width of the model's input vectors (read by a Major-Minor layer's minor LSTM).
// The cell is initialised from `init`.
std::shared_ptr<RecurrentCell> makeCell(const LayerConfig& layer, int64_t inputSize,
                                        int64_t embeddingSize, const InitConfig& init);

}  // namespace mrnn::engine
