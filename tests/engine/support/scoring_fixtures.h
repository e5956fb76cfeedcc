#pragma once

// Hand-built models for the scoring tests, whose every prediction is known exactly.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"

namespace mrnn::test {

// A model whose parameters are all zero but the output bias: it predicts softmax(bias) after
// every symbol, whatever came before.
std::unique_ptr<engine::LanguageModel> fixedDistributionModel(const engine::Vocabulary& vocabulary,
                                                              const std::vector<float>& bias);

// A bigram model: one-hot input, an Elman RNN with H = V, W_hx = 10 I and no recurrence, so
// h = tanh(10) e_current; output.W[next][current] = `strength` for each (current, next) pair
// in `transitions`, 0 otherwise. Its log p(next | current) is bigramLogProb().
std::unique_ptr<engine::LanguageModel> bigramModel(
    const engine::Vocabulary& vocabulary,
    const std::vector<std::pair<std::string, std::string>>& transitions, double strength);

// The same model's log-probability, computed independently in double precision.
double bigramLogProb(const engine::Vocabulary& vocabulary,
                     const std::vector<std::pair<std::string, std::string>>& transitions,
                     double strength, int64_t current, int64_t next);

// A small random mLSTM (one or two layers) for the masking tests.
engine::ModelConfig smallModelConfig(size_t layers);

}  // namespace mrnn::test
