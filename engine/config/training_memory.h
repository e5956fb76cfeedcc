#pragma once

#include <cstdint>

#include "engine/config/model_config.h"
#include "engine/config/training_config.h"

namespace mrnn::engine {

// What a training run holds in memory, roughly, from its settings alone: the trainer refuses
// a run that would not fit before its first step, and the composer says so as sizes are typed.

// Bytes a training step holds: each parameter as weight, gradient, two optimiser slots and a
// per-window copy (weight norm / drop), and per window position each layer's gates and states
// kept for the backward pass, plus the output's logits and their gradient.
double trainingBytes(const ModelConfig& model, int64_t parameters, int64_t vocab,
                     const TrainingConfig& training);

// Bytes of the machine's own memory the run needs: all of trainingBytes on a CPU; on a GPU
// the weights, made on the host before they move (the rest is the GPU's).
double hostTrainingBytes(const ModelConfig& model, int64_t parameters, int64_t vocab,
                         const TrainingConfig& training, bool onGpu);

}  // namespace mrnn::engine
