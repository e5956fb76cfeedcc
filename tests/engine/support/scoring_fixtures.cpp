#include "scoring_fixtures.h"

#include <torch/torch.h>

#include <cmath>

namespace mrnn::test {
namespace {

engine::ModelConfig bigramConfig(const engine::Vocabulary& vocabulary) {
  engine::ModelConfig config;
  config.input.level = vocabulary.level();
  config.input.embeddingSize = 0;  // one-hot
  engine::LayerConfig layer;
  layer.type = engine::CellType::Rnn;
  layer.hiddenSize = vocabulary.size();
  config.layers = {layer};
  return config;
}

bool hasTransition(const engine::Vocabulary& vocabulary,
                   const std::vector<std::pair<std::string, std::string>>& transitions,
                   int64_t current, int64_t next) {
  for (const auto& [from, to] : transitions) {
    if (vocabulary.find(from) == current && vocabulary.find(to) == next) return true;
  }
  return false;
}

}  // namespace

std::unique_ptr<engine::LanguageModel> fixedDistributionModel(const engine::Vocabulary& vocabulary,
                                                              const std::vector<float>& bias) {
  auto model = std::make_unique<engine::LanguageModel>(bigramConfig(vocabulary), vocabulary.size());
  torch::NoGradGuard noGrad;
  for (auto& parameter : model->parameters()) parameter.zero_();
  model->named_parameters()["output.b"].copy_(torch::tensor(bias));
  model->eval();
  return model;
}

std::unique_ptr<engine::LanguageModel> bigramModel(
    const engine::Vocabulary& vocabulary,
    const std::vector<std::pair<std::string, std::string>>& transitions, double strength) {
  auto model = std::make_unique<engine::LanguageModel>(bigramConfig(vocabulary), vocabulary.size());
  torch::NoGradGuard noGrad;
  for (auto& parameter : model->parameters()) parameter.zero_();
  auto parameters = model->named_parameters();
  parameters["layer1.W_hx"].copy_(torch::eye(vocabulary.size()) * 10.0);
  auto output = parameters["output.W"];
  for (const auto& [from, to] : transitions) {
    output[vocabulary.find(to)][vocabulary.find(from)].fill_(strength);
  }
  model->eval();
  return model;
}

double bigramLogProb(const engine::Vocabulary& vocabulary,
                     const std::vector<std::pair<std::string, std::string>>& transitions,
                     double strength, int64_t current, int64_t next) {
  const double h = std::tanh(10.0);
  double normaliser = 0.0;
  for (int64_t v = 0; v < vocabulary.size(); ++v) {
    normaliser += std::exp(hasTransition(vocabulary, transitions, current, v) ? strength * h : 0.0);
  }
  const double logit = hasTransition(vocabulary, transitions, current, next) ? strength * h : 0.0;
  return logit - std::log(normaliser);
}

engine::ModelConfig smallModelConfig(size_t layers) {
  engine::ModelConfig config;
  config.input.embeddingSize = 6;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Mlstm;
  layer.hiddenSize = 12;
  config.layers = std::vector<engine::LayerConfig>(layers, layer);
  return config;
}

}  // namespace mrnn::test
