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

namespace mrnn::engine {

// Called after each validation: NT-ASGD decides here whether to start averaging; the other
// optimisers ignore it.
void notifyValidation(torch::optim::Optimizer& optimizer, double validLoss);
// NT-ASGD, once averaging: swaps the averaged weights into the parameters (evaluation and
// saving use them) or back. Returns false, doing nothing, for the other optimisers or before
// averaging starts.
bool swapAveragedWeights(torch::optim::Optimizer& optimizer);
// NT-ASGD: whether the averaged weights are in the parameters now (between two swaps). A
// state saved while they were swapped in is swapped back by load(), model loaded first, so
// training resumes from the raw iterate. False for the other optimisers.
bool averagedWeightsIn(const torch::optim::Optimizer& optimizer);

}  // namespace mrnn::engine
