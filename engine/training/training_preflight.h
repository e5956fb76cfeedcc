#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "engine/config/data_config.h"
#include "engine/config/model_config.h"
#include "engine/config/training_config.h"
#include "engine/data/corpus.h"

namespace mrnn::engine {

// What the trainer checks before its first step, so that a run that cannot end well fails at
// once with the reason rather than hours later.

// A run validates (at least once, at its end) and ends with a test: both splits must hold a
// symbol to predict, which is known as soon as the corpus loads, not after the training. The
// symbols read as <unk> (data.vocabulary: train_unk) are reported through `log`. Throws
// std::runtime_error naming the split's file or fraction.
void checkHeldOutSplits(const Corpus& corpus, const DataConfig& data,
                        const std::function<void(const std::string&)>& log);

}  // namespace mrnn::engine
