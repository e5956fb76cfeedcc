#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// "Match parameters": resize one layer so that the whole model has as close as possible to a
// target number of parameters (equal-size comparisons, mLSTM against LSTM). Pure functions
// over the engine's closed-form counts, so the dialog can show results as one types.

enum class SizedSetting {
  HiddenSize,  // H; when the layer's m size follows H (m_size 0) it keeps following
  MSize,       // M (factor_size for mrnn); only for cells with an intermediate state
};

struct ParameterMatch {
  int64_t size = 0;   // the chosen value of the setting
  int64_t total = 0;  // the model's total parameter count at that size
  // False when the size sits at a bound (1 or kMaxLayerWidth) and the total still misses the
  // target by more than 1 %: the rest of the model is too large (or the layer too small).
  bool reachable = true;
};

// The largest width the parser accepts (model_config_parser.cpp, kMaxWidth).
constexpr int64_t kMaxLayerWidth = int64_t{1} << 20;

// Total trainable parameters of `model` for vocabulary size `vocab` (> 0).
int64_t modelParameterCount(const ModelConfig& model, int64_t vocab);

// `model` with the setting of layer `layer` set to `size`.
ModelConfig withLayerSize(const ModelConfig& model, size_t layer, SizedSetting setting,
                          int64_t size);

// Whether `setting` exists for the layer's cell type.
bool canSize(const ModelConfig& model, size_t layer, SizedSetting setting);

// The size in [1, kMaxLayerWidth] whose total is closest to `target` (the smaller size on a
// tie). The total grows monotonically with either setting, so a binary search finds the
// first size at or above the target and the answer is it or its predecessor.
// Throws std::invalid_argument for an unknown vocabulary, a layer out of range, or a setting
// the layer does not have.
ParameterMatch matchParameters(const ModelConfig& model, size_t layer, SizedSetting setting,
                               int64_t vocab, int64_t target);

// The hidden size of `layer` that brings the total closest to `target`.
int64_t sizeLayerToMatch(const ModelConfig& model, size_t layer, int64_t vocab, int64_t target);

}  // namespace mrnn::engine
