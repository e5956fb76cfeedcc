#include "engine/inference/frozen_cell.h"

namespace mrnn::engine {

FrozenCell::FrozenCell(const LayerConfig& config, int64_t inputSize, int64_t projectedSize)
    : config_(config), inputSize_(inputSize), projectedSize_(projectedSize) {}

}  // namespace mrnn::engine
