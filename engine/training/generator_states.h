#pragma once

#include <torch/types.h>

namespace mrnn::engine {

// The random generators' states on the CPU and, for a GPU device, on it: dropout masks are
// drawn from them, so a step abandoned by a stop is taken again with the same masks.
struct GeneratorStates {
  torch::Tensor cpu;
  torch::Tensor gpu;
};

GeneratorStates generatorStatesOn(const torch::Device& device);
void restoreGeneratorStatesOn(const torch::Device& device, const GeneratorStates& states);

class Collective;
// Every rank's generators, [ranks, bytes] each (the GPU's undefined on a CPU device): a
// checkpoint keeps them so that each rank resumes its own masks. Every rank must call it.
GeneratorStates gatherRankGenerators(const torch::Device& device, Collective& collective);

}  // namespace mrnn::engine
