#pragma once

#include <memory>

#include "engine/inference/frozen_cell.h"
#include "engine/models/recurrent_cell.h"

namespace mrnn::engine {

// The frozen copy of `cell` as it runs in eval mode: its recurrent weights with weight
// normalisation folded in (RecurrentCell::effectiveRecurrentWeights()) and the parameters its
// recurrent part reads, copied to float. Later changes to the cell do not reach the copy.
std::unique_ptr<FrozenCell> freezeCell(RecurrentCell& cell);

}  // namespace mrnn::engine
