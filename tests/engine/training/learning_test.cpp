// A small mLSTM learns tiny shakespeare: after a few hundred steps its validation bits per
// character are well below the unigram entropy of the text.

#include <cmath>
#include <filesystem>
#include <map>

#include "engine/data/corpus.h"
#include "engine/training/trainer.h"
#include "test_harness.h"
#include "training_fixtures.h"

using namespace mrnn;
using namespace mrnn::test;

MRNN_TEST(mlstm_learns_tiny_shakespeare) {
  const std::string corpus = std::string(MRNN_SHARED_DIR) + "/data/tinyshakespeare/input.txt";
  if (!std::filesystem::exists(corpus)) MRNN_SKIP("shared corpus not found: " + corpus);
  ScratchProject scratch("learn");
  scratch.write("project.yaml",
                "name: learning test\n"
                "model:\n"
                "  input: {level: char, embedding_size: 32}\n"
                "  layers: [{type: mlstm, hidden_size: 128}]\n"
                "data: {train: " +
                    corpus +
                    ", max_symbols: 300000}\n"
                    "training:\n"
                    "  batch_size: 32\n"
                    "  bptt: 64\n"
                    "  max_steps: 250\n"
                    "  validate_every: 250\n"
                    "  validation_symbols: 20000\n"
                    "  optimizer: {type: adam, lr: 0.004}\n"
                    "  threads: 2\n");
  const auto project = engine::loadProject(scratch.file("project.yaml"));

  // The unigram entropy of the training slice, in bits per character.
  const auto data = engine::loadCorpus(project.data, project.model.input.level, project.folder);
  std::map<int64_t, int64_t> counts;
  const auto& tokens = data.train.tokens;
  for (int64_t i = 0; i < tokens.size(); ++i) ++counts[tokens.at(i)];
  double entropy = 0.0;
  for (const auto& [symbol, count] : counts) {
    const double p = static_cast<double>(count) / static_cast<double>(tokens.size());
    entropy -= p * std::log2(p);
  }

  engine::StopToken control;
  double validBpc = 0.0;
  engine::Trainer trainer(project, [&](const engine::TrainingEvent& event) {
    if (auto* v = std::get_if<engine::ValidationEvent>(&event)) validBpc = v->figures.bitsPerSymbol;
  });
  const auto outcome = trainer.run(control);
  EXPECT_MSG(outcome.finished, outcome.reason);
  std::printf("unigram entropy %.3f bits/char, validation %.3f bits/char after %lld steps\n",
              entropy, validBpc, static_cast<long long>(outcome.steps));
  EXPECT(entropy > 4.0);
  EXPECT_MSG(validBpc < entropy - 1.0, "validation " << validBpc << " vs unigram " << entropy);
}
