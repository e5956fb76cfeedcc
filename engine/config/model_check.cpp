#include "engine/config/model_check.h"

#include <algorithm>

namespace mrnn::engine {
namespace {

std::string layerKey(size_t index, const std::string& name) {
  return "layers[" + std::to_string(index) + "]." + name;
}

}  // namespace

std::vector<ModelProblem> checkModel(const ModelConfig& config, int64_t vocab) {
  std::vector<ModelProblem> problems;
  if (config.input.level == InputLevel::Byte && config.input.vocabSize != 0 &&
      config.input.vocabSize != 256) {
    problems.push_back(
        {-1, "input.vocab_size",
         "byte-level input always has 256 symbols, not " + std::to_string(config.input.vocabSize)});
  }
  if (config.layers.empty()) {
    problems.push_back({-1, "layers", "the model needs at least one recurrent layer"});
    return problems;
  }

  int64_t width = config.inputWidth(vocab);
  for (size_t i = 0; i < config.layers.size(); ++i) {
    const LayerConfig& layer = config.layers[i];
    if (layer.type == CellType::Mogrifier && layer.rank > 0 && width > 0) {
      const int64_t limit = std::min(width, layer.hiddenSize);
      if (layer.rank >= limit) {
        problems.push_back({static_cast<int>(i), layerKey(i, "rank"),
                            "rank " + std::to_string(layer.rank) +
                                " must be below min(input width, hidden size) = " +
                                std::to_string(limit) + "; use rank: 0 for full-rank Q and R"});
      }
    }
    width = layer.hiddenSize;
  }

  if (config.output.tieEmbeddings) {
    if (config.input.embeddingSize <= 0) {
      problems.push_back({-1, "output.tie_embeddings",
                          "tied embeddings need a linear embedding (input.embedding_size > 0); "
                          "the input is one-hot"});
    } else if (config.output.kind == OutputKind::Softmax &&
               config.layers.back().hiddenSize != config.input.embeddingSize) {
      problems.push_back(
          {static_cast<int>(config.layers.size() - 1), "output.tie_embeddings",
           "tied embeddings need the last layer's width (" +
               std::to_string(config.layers.back().hiddenSize) + ") to equal the embedding size (" +
               std::to_string(config.input.embeddingSize) +
               "); change one, or use a Mixture of Softmaxes, whose latent width follows the "
               "embedding"});
    } else if (config.output.kind == OutputKind::MixtureOfSoftmaxes &&
               config.output.latentSize > 0 &&
               config.output.latentSize != config.input.embeddingSize) {
      problems.push_back({-1, "output.latent_size",
                          "with tied embeddings the MoS latent width must equal the embedding "
                          "size (" +
                              std::to_string(config.input.embeddingSize) + ")"});
    }
  }
  return problems;
}

}  // namespace mrnn::engine
