#pragma once

#include <cstdint>

#include "engine/bench/bench_shape.h"
#include "engine/config/model_config.h"
#include "engine/data/vocabulary.h"

namespace mrnn::engine {

// The benchmark's engine model: embedding -> one layer of shape.cell -> softmax, the
// cell's defaults otherwise; the Mogrifier's r and k are the shape's (by default the engine's
// r = 5, k = 40, as in Melis et al.). Throws std::invalid_argument naming the cell when it is
// not an engine cell type, or when the model cannot be built (a Mogrifier rank not below
// min(embedding, hidden)).
ModelConfig benchModelConfig(const BenchShape& shape);

// `count` distinct one-character symbols for sampling (code points from U+0100).
Vocabulary benchVocabulary(int64_t count);

}  // namespace mrnn::engine
