#include "widgets/composer/layer_stack_edits.h"

#include <iterator>

namespace mrnn::widgets {
namespace {

constexpr int64_t kDefaultHiddenSize = 256;

}  // namespace

engine::LayerConfig newLayer(const engine::ModelConfig& model, size_t position,
                             engine::CellType type) {
  engine::LayerConfig layer;
  layer.type = type;
  const auto& layers = model.layers;
  if (position > 0 && position <= layers.size()) {
    layer.hiddenSize = layers[position - 1].hiddenSize;
  } else if (position < layers.size()) {
    layer.hiddenSize = layers[position].hiddenSize;
  } else {
    layer.hiddenSize = kDefaultHiddenSize;
  }
  return layer;
}

engine::ModelConfig insertLayer(const engine::ModelConfig& model, size_t position,
                                engine::CellType type) {
  engine::ModelConfig edited = model;
  if (position > edited.layers.size()) return edited;
  const engine::LayerConfig layer = newLayer(model, position, type);
  edited.layers.insert(std::next(edited.layers.begin(), static_cast<std::ptrdiff_t>(position)),
                       layer);
  return edited;
}

engine::ModelConfig removeLayer(const engine::ModelConfig& model, size_t index) {
  engine::ModelConfig edited = model;
  if (index >= edited.layers.size()) return edited;
  edited.layers.erase(std::next(edited.layers.begin(), static_cast<std::ptrdiff_t>(index)));
  return edited;
}

engine::ModelConfig duplicateLayer(const engine::ModelConfig& model, size_t index) {
  engine::ModelConfig edited = model;
  if (index >= edited.layers.size()) return edited;
  const engine::LayerConfig copy = edited.layers[index];
  edited.layers.insert(std::next(edited.layers.begin(), static_cast<std::ptrdiff_t>(index + 1)),
                       copy);
  return edited;
}

engine::ModelConfig moveLayer(const engine::ModelConfig& model, size_t from, size_t to) {
  engine::ModelConfig edited = model;
  const size_t count = edited.layers.size();
  if (from >= count || to >= count || from == to) return edited;
  const engine::LayerConfig moved = edited.layers[from];
  edited.layers.erase(std::next(edited.layers.begin(), static_cast<std::ptrdiff_t>(from)));
  edited.layers.insert(std::next(edited.layers.begin(), static_cast<std::ptrdiff_t>(to)), moved);
  return edited;
}

}  // namespace mrnn::widgets
