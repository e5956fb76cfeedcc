#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// Closed-form parameter counts, without building a model (the composer shows them live).
// docs/model-config.md tabulates the formulas; tests check them against built models.

// All trainable parameters of one layer reading `inputWidth`-wide vectors; `embeddingWidth`
// is what a Major-Minor layer's minor LSTM reads when fed by the embedding.
int64_t cellParameterCount(const LayerConfig& layer, int64_t inputWidth, int64_t embeddingWidth);
// Weights on the recurrent path (those multiplying h_{t-1} or m_t), the quantity Krause §2
// compares: mLSTM at dim(m) = H has 1.25x the LSTM's.
int64_t cellRecurrentWeightCount(const LayerConfig& layer);
// The formula in words, for documentation and tooltips (I input, H hidden, M m size).
std::string cellParameterFormula(CellType type);

struct SummaryRow {
  std::string block;   // "input", "layer 1", ..., "output"
  std::string kind;    // "embedding", cell name, "softmax", "mos"
  std::string detail;  // the settings that shape it
  int64_t inputWidth = 0;
  int64_t outputWidth = 0;
  int64_t parameters = 0;
};

struct ModelSummary {
  std::vector<SummaryRow> rows;
  int64_t totalParameters = 0;
};

// `vocab` must be known (> 0): the input and output sizes depend on it.
ModelSummary summarizeModel(const ModelConfig& config, int64_t vocab);

}  // namespace mrnn::engine
