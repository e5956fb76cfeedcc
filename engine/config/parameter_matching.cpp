#include "engine/config/parameter_matching.h"

#include <cmath>
#include <stdexcept>

#include "engine/config/parameter_count.h"

namespace mrnn::engine {

int64_t modelParameterCount(const ModelConfig& model, int64_t vocab) {
  return summarizeModel(model, vocab).totalParameters;
}

bool canSize(const ModelConfig& model, size_t layer, SizedSetting setting) {
  if (layer >= model.layers.size()) return false;
  return setting == SizedSetting::HiddenSize || hasIntermediateState(model.layers[layer].type);
}

ModelConfig withLayerSize(const ModelConfig& model, size_t layer, SizedSetting setting,
                          int64_t size) {
  ModelConfig sized = model;
  engine::LayerConfig& target = sized.layers.at(layer);
  if (setting == SizedSetting::HiddenSize) {
    target.hiddenSize = size;
  } else {
    target.mSize = size;
  }
  return sized;
}

ParameterMatch matchParameters(const ModelConfig& model, size_t layer, SizedSetting setting,
                               int64_t vocab, int64_t target) {
  if (vocab <= 0) throw std::invalid_argument("the vocabulary size is not known");
  if (layer >= model.layers.size()) throw std::invalid_argument("no such layer");
  if (!canSize(model, layer, setting)) {
    throw std::invalid_argument("this cell type has no m size");
  }
  const auto totalAt = [&](int64_t size) {
    return modelParameterCount(withLayerSize(model, layer, setting, size), vocab);
  };
  // First size whose total reaches the target (kMaxLayerWidth if none does).
  int64_t low = 1;
  int64_t high = kMaxLayerWidth;
  while (low < high) {
    const int64_t middle = low + (high - low) / 2;
    if (totalAt(middle) >= target) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  ParameterMatch best{low, totalAt(low)};
  if (low > 1) {
    const int64_t below = totalAt(low - 1);
    const auto distance = [target](int64_t total) {
      return total > target ? total - target : target - total;
    };
    if (distance(below) <= distance(best.total)) best = {low - 1, below};
  }
  const bool atBound = best.size == 1 || best.size == kMaxLayerWidth;
  const double miss = std::fabs(static_cast<double>(best.total - target));
  best.reachable = !atBound || miss <= 0.01 * static_cast<double>(target);
  return best;
}

int64_t sizeLayerToMatch(const ModelConfig& model, size_t layer, int64_t vocab, int64_t target) {
  return matchParameters(model, layer, SizedSetting::HiddenSize, vocab, target).size;
}

}  // namespace mrnn::engine
