#pragma once

#include <torch/optim/optimizer.h>

#include <memory>
#include <vector>

#include "engine/config/training_config.h"

namespace mrnn::engine {

// The optimiser a training config names, over `parameters`. Every kind is a
// torch::optim::Optimizer, so its state saves and loads through torch::serialize
// (checkpoints) and its learning rate is set through setLearningRate().
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerConfig& config,
                                                       std::vector<torch::Tensor> parameters);

double learningRate(const torch::optim::Optimizer& optimizer);
void setLearningRate(torch::optim::Optimizer& optimizer, double rate);

// Moves every state tensor to its parameter's device. A checkpoint read onto the CPU loads
// the state there; torch's Adam, AdamW, RMSprop and SGD then fail on CUDA parameters. Call
// after load() (our two optimisers do it themselves). Covers the six kinds above.
void moveStateToParameterDevices(torch::optim::Optimizer& optimizer);

}  // namespace mrnn::engine
