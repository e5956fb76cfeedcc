#include "engine/config/model_names.h"

#include "engine/config/cell_type.h"

namespace mrnn::engine {

std::string modelTypeSummary(const ModelConfig& model) {
  if (model.layers.empty()) return "";
  bool same = true;
  for (const auto& layer : model.layers) same = same && layer.type == model.layers[0].type;
  if (same) {
    std::string out = cellTypeName(model.layers[0].type);
    if (model.layers.size() > 1) out += " x " + std::to_string(model.layers.size());
    return out;
  }
  std::string out;
  for (const auto& layer : model.layers) out += (out.empty() ? "" : "+") + cellTypeName(layer.type);
  return out;
}

std::string defaultRunName(const ModelConfig& model) {
  if (model.layers.empty()) return "run";
  bool same = true;
  for (const auto& layer : model.layers) {
    same = same && layer.type == model.layers[0].type &&
           layer.hiddenSize == model.layers[0].hiddenSize;
  }
  const auto named = [](const LayerConfig& layer) {
    return cellTypeName(layer.type) + " " + std::to_string(layer.hiddenSize);
  };
  if (same) {
    std::string out = named(model.layers[0]);
    if (model.layers.size() > 1) out += " x " + std::to_string(model.layers.size());
    return out;
  }
  std::string out;
  for (const auto& layer : model.layers) out += (out.empty() ? "" : " + ") + named(layer);
  return out;
}

}  // namespace mrnn::engine
