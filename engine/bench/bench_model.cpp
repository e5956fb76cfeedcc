#include "engine/bench/bench_model.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/config/cell_type.h"

namespace mrnn::engine {

ModelConfig benchModelConfig(const BenchShape& shape) {
  const auto type = cellTypeFromName(shape.cell);
  if (!type) throw std::invalid_argument("unknown cell type '" + shape.cell + "'");
  ModelConfig config;
  config.input.embeddingSize = shape.embedding;
  LayerConfig layer;
  layer.type = *type;
  layer.hiddenSize = shape.hidden;
  config.layers = {layer};
  return config;
}

Vocabulary benchVocabulary(int64_t count) {
  std::vector<std::string> symbols;
  for (int64_t i = 0; i < count; ++i) {
    const auto point = static_cast<unsigned>(0x100 + i);
    symbols.push_back(
        {static_cast<char>(0xC0 | (point >> 6)), static_cast<char>(0x80 | (point & 0x3F))});
  }
  return Vocabulary::fromSymbols(InputLevel::Char, symbols);
}

}  // namespace mrnn::engine
