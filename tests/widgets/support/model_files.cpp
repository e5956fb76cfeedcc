#include "model_files.h"

#include <torch/torch.h>

#include "engine/analysis/held_out_text.h"
#include "engine/analysis/loaded_model.h"
#include "engine/interop/safetensors_file.h"
#include "engine/interop/torch_file.h"
#include "engine/models/language_model.h"
#include "engine/training/evaluator.h"

namespace mrnn::test {

void writePyTorchLanguageModel(const std::string& path, int64_t vocabulary) {
  const int64_t embedding = 4;
  const int64_t hidden = 3;
  engine::writeTorchStateDict(path, {{"encoder.weight", torch::randn({vocabulary, embedding})},
                                     {"rnn.weight_ih_l0", torch::randn({4 * hidden, embedding})},
                                     {"rnn.weight_hh_l0", torch::randn({4 * hidden, hidden})},
                                     {"rnn.bias_ih_l0", torch::randn({4 * hidden})},
                                     {"rnn.bias_hh_l0", torch::randn({4 * hidden})},
                                     {"decoder.weight", torch::randn({vocabulary, hidden})},
                                     {"decoder.bias", torch::randn({vocabulary})}});
}

void writeForeignSafetensors(const std::string& path) {
  engine::writeSafetensors(path, {{{"w", torch::ones({2})}}, {}});
}

double staticValidationLoss(const std::string& checkpoint, const engine::Project& dataProject,
                            int64_t symbols) {
  auto loaded = engine::loadModelFromCheckpoint(checkpoint);
  const auto split = engine::heldOutSplit(dataProject, loaded.vocabulary, "valid");
  engine::EvalOptions options;
  options.batch = loaded.project.evaluation.batchSize;
  options.bptt = loaded.project.evaluation.bptt;
  options.maxSymbols = symbols;
  torch::NoGradGuard noGrad;
  return engine::evaluateStatic(*loaded.model, split, options).nats;
}

}  // namespace mrnn::test
