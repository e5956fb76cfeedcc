#pragma once

// A cell's fused window (one autograd node with a hand-written backward) against the
// generic per-step loop it replaces: same outputs, same final state and the same gradients
// for every parameter, the inputs, the embedding and the initial state. Both run in float32,
// the precision the fused paths run in, on the CPU or on a GPU (the CUDA windows).

#include <torch/types.h>

#include <string>

#include "engine/config/model_config.h"

namespace mrnn::test {

// The autograd node a cell's fused window records ("MlstmWindowFunction", ...), or "" for a
// configuration that runs the per-step loop (the output gate inside, the mi-LSTM).
std::string expectedFusedNode(const engine::LayerConfig& layer);

// Runs one window (T 7, batch 3) both ways and checks they agree; with `masked`, a
// variational state mask is applied. Checks too that the fused path ran the expected node
// (found anywhere in the output's graph; on a GPU its CUDA twin, "Cuda" + the node), and the
// loop did not.
void compareFusedWithLoop(const engine::LayerConfig& layer, bool masked, const std::string& label,
                          const torch::Device& device = torch::kCPU);

// Every case of allCellCases() of this type, unmasked and masked.
void compareFusedWithLoopForType(engine::CellType type, const torch::Device& device = torch::kCPU);

}  // namespace mrnn::test
