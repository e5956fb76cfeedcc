#pragma once

// Tiny hand-built models for the probing tests: answers known in advance.

#include <torch/torch.h>

#include <string>
#include <vector>

#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"

namespace mrnn::test {

inline engine::ModelConfig tinyModel(std::vector<engine::CellType> types, int64_t hidden = 4,
                                     int64_t embedding = 0) {
  engine::ModelConfig config;
  config.input.embeddingSize = embedding;
  for (const auto type : types) {
    engine::LayerConfig layer;
    layer.type = type;
    layer.hiddenSize = hidden;
    config.layers.push_back(layer);
  }
  return config;
}

inline engine::Vocabulary tinyVocabulary(int64_t size) {
  std::vector<std::string> symbols;
  for (int64_t i = 0; i < size; ++i) symbols.push_back(std::string(1, static_cast<char>('a' + i)));
  return engine::Vocabulary::fromSymbols(engine::InputLevel::Char, symbols);
}

// Sets every parameter whose name starts with "layer" (the cells) and satisfies `pick`.
template <typename Pick>
void fillCellParameters(engine::LanguageModel& model, Pick pick, double value) {
  torch::NoGradGuard noGrad;
  for (auto& entry : model.named_parameters()) {
    if (entry.key().rfind("layer", 0) == 0 && pick(entry.key())) entry.value().fill_(value);
  }
}

inline bool isBias(const std::string& name) {
  return name.size() >= 2 && name.compare(name.size() - 2, 2, ".b") == 0;
}

}  // namespace mrnn::test
