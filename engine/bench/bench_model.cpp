#include "engine/bench/bench_model.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/config/cell_type.h"
#include "engine/config/model_check.h"

namespace mrnn::engine {

ModelConfig benchModelConfig(const BenchShape& shape) {
  const auto type = cellTypeFromName(shape.cell);
  if (!type) throw std::invalid_argument("unknown cell type '" + shape.cell + "'");
  ModelConfig config;
  config.input.embeddingSize = shape.embedding;
  LayerConfig layer;
  layer.type = *type;
  layer.hiddenSize = shape.hidden;
  if (layer.type == CellType::Mogrifier) {
    if (shape.mogrifierRounds < 0 || shape.mogrifierRank < 0) {
      throw std::invalid_argument("the Mogrifier's rounds and rank are not negative");
    }
    layer.rounds = shape.mogrifierRounds;
    layer.rank = shape.mogrifierRank;
  }
  config.layers = {layer};
  // A rank the widths cannot take (k >= min(embedding, hidden)), said as the YAML would.
  const auto problems = checkModel(config, shape.vocab);
  if (!problems.empty()) {
    throw std::invalid_argument(shape.cell + ": " + problems.front().reason);
  }
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
