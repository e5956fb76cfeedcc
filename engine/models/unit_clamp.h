#pragma once

#include <cstddef>
#include <cstdint>

namespace mrnn::engine {

// Holds hidden unit `unit` of layer `layer` (0-based) at `value` at every step, in the output
// the next layer reads and in the state carried to the next step (sentiment-neuron style).
struct UnitClamp {
  size_t layer = 0;
  int64_t unit = 0;
  double value = 0.0;
};

}  // namespace mrnn::engine
