#pragma once

#include <torch/types.h>

#include "engine/models/cell_state.h"
#include "engine/models/probe_recorder.h"

namespace mrnn::engine {

// The GRU-family finish (Maupome & Meurs eq. 18) shared by gru, mgru and tmgru:
// h = (1 - z) * h_prev + z * j, with h_prev the carried (unmasked) state. Stores h in
// `state`, records probes z, r, j, h and returns h.
torch::Tensor gruUpdate(const torch::Tensor& z, const torch::Tensor& r, const torch::Tensor& j,
                        CellState& state, ProbeRecorder* probes);

}  // namespace mrnn::engine
