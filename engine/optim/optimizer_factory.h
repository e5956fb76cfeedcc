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

}  // namespace mrnn::engine

namespace mrnn::engine {

// Called after each validation: NT-ASGD decides here whether to start averaging; the other
// optimisers ignore it.
void notifyValidation(torch::optim::Optimizer& optimizer, double validLoss);
// NT-ASGD, once averaging: swaps the averaged weights into the parameters (evaluation and
// saving use them) or back. Returns false, doing nothing, for the other optimisers or before
// averaging starts.
bool swapAveragedWeights(torch::optim::Optimizer& optimizer);

}  // namespace mrnn::engine
