#pragma once

#include <cstdint>
#include <exception>
#include <string>

#include <torch/types.h>

#include "engine/optim/update_rule.h"

namespace mrnn::engine {

// What the trainer says when a run cannot go on, in a researcher's words.

// Throws for an update that was not applied (the loss or gradient not finite: the weights are
// untouched, the last checkpoint good) or that left weights not finite, naming step `step`
// (the one being taken) and, where the rule has one, its learning rate.
void requireSoundUpdate(const UpdateResult& result, int64_t step, double rate,
                        bool usesLearningRate);

// Throws for a validation figure that is not finite (never a "best" checkpoint: the run ends
// with its last good one as it is), naming the step.
void requireFiniteValidation(double bitsPerSymbol, int64_t step);

// Why the run failed: an allocator's failure (LibTorch's own text is a page of allocator
// figures) as the device, the step and the size that did not fit (`sizeText`) with what to
// lower; any other error as libraryErrorText gives it.
std::string trainingFailureText(const std::exception& error, const torch::Device& device,
                                int64_t step, const std::string& sizeText);

}  // namespace mrnn::engine
