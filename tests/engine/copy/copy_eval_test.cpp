// Scoring the reverse copy task with answers known in advance. Evaluation and the training
// step count only the reversed half: a uniform model gives log2(V + 2) bits per copied token,
// a model sure of the marker and <eos> gives -log2 p(token). `analyze copy`'s engine gives an
// oracle that copies by the book with confidence q exactly -log2 q bits per token, and its
// deliberate errors exactly where they were put.

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

#include "engine/data/corpus.h"
#include "engine/data/reverse_copy_task.h"
#include "engine/data/stream_batcher.h"
#include "engine/store/text_format.h"
#include "engine/synthetic/copy_evaluation.h"
#include "engine/synthetic/copy_output.h"
#include "engine/training/checkpoint.h"
#include "engine/training/evaluator.h"
#include "engine/training/train_step.h"
#include "engine/training/trainer.h"
#include "engine/training/window_tensor.h"
#include "scoring_fixtures.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"

using namespace mrnn;
using engine::CopyStream;
using engine::ReverseCopyTask;
using test::firstDifferentWeight;
using test::trainToEnd;

namespace {

engine::CopyTaskConfig copyConfig(int64_t vocabulary, int64_t length) {
  engine::CopyTaskConfig config;
  config.vocabulary = vocabulary;
  config.length = length;
  config.seed = 3;
  return config;
}

bool reversedAt(int64_t index, int64_t length) {
  const int64_t offset = index % (2 * length + 2);
  return offset > length && offset <= 2 * length;
}

// The masked targets evaluateStatic reads with `batch` streams: the batcher's rule, stream b
// holding targets b * S + 1 .. b * S + S with S = (N - 1) / B.
int64_t maskedTargets(int64_t tokens, int64_t batch, int64_t length) {
  const int64_t streamLength = (tokens - 1) / batch;
  int64_t count = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t t = 1; t <= streamLength; ++t) count += reversedAt(b * streamLength + t, length);
  }
  return count;
}

// A model predicting softmax(bias) whatever it reads (scoring_fixtures.h).
std::unique_ptr<engine::LanguageModel> fixed(const ReverseCopyTask& task,
                                             const std::vector<float>& bias) {
  return test::fixedDistributionModel(task.vocabulary(), bias);
}

// Copies by the book: a stack per stream, pushed while reading, popped while writing. It puts
// probability q on what comes next after the marker and spreads the rest evenly; with wrongAt
// = k it puts q on t1 instead at output position k whenever the right token is t0. It also
// checks that the streams it is shown are well formed (each starts with <eos>; the reversal
// matches what was read); `malformed` says when they were not.
class Oracle : public engine::CopyPredictor {
 public:
  Oracle(int64_t tokens, double q, int64_t wrongAt = 0)
      : tokens_(tokens), q_(q), wrongAt_(wrongAt) {}

  int64_t vocab() const override { return tokens_ + 2; }
  void reset(int64_t batch) override {
    streams_.assign(static_cast<size_t>(batch), Stream());
    ++resets;
  }
  torch::Tensor read(const torch::Tensor& inputs) override {
    const int64_t steps = inputs.size(0);
    const int64_t batch = inputs.size(1);
    const int64_t marker = tokens_;
    const int64_t eos = tokens_ + 1;
    auto out = torch::full({steps, batch, vocab()}, -std::log(static_cast<double>(vocab())),
                           torch::kFloat64);
    const double rest = std::log((1.0 - q_) / static_cast<double>(tokens_ + 1));
    for (int64_t t = 0; t < steps; ++t) {
      for (int64_t b = 0; b < batch; ++b) {
        const int64_t id = inputs[t][b].item<int64_t>();
        Stream& s = streams_[static_cast<size_t>(b)];
        if (!s.started && id != eos) malformed = true;
        s.started = true;
        int64_t next = -1;
        if (id == eos) {
          s = Stream();
          s.started = true;
        } else if (id == marker) {
          malformed = malformed || s.writing;
          s.writing = true;
          next = s.stack.empty() ? eos : s.stack.back();
        } else if (!s.writing) {
          s.stack.push_back(id);
        } else {
          if (s.stack.empty() || s.stack.back() != id) malformed = true;
          if (!s.stack.empty()) s.stack.pop_back();
          ++s.written;
          next = s.stack.empty() ? eos : s.stack.back();
        }
        if (next < 0) continue;  // reading: nothing to know, uniform
        const int64_t position = s.written + 1;
        const int64_t chosen = wrongAt_ == position && next == 0 ? 1 : next;
        out[t][b].fill_(rest);
        out[t][b][chosen].fill_(std::log(q_));
      }
    }
    return out;
  }

  bool malformed = false;
  int resets = 0;

 private:
  struct Stream {
    bool started = false;
    bool writing = false;
    int64_t written = 0;
    std::vector<int64_t> stack;
  };
  int64_t tokens_;
  double q_;
  int64_t wrongAt_;
  std::vector<Stream> streams_;
};

// A tiny word-level LSTM on generated data: V = 3, L = 2, 200 / 20 / 20 examples, batch 4,
// windows of 6, validated every 3 steps.
engine::Project copyProject(const std::string& folder, int64_t maxSteps) {
  engine::Project project;
  project.name = "copy";
  project.folder = folder;
  project.model.input.level = engine::InputLevel::Word;
  project.model.input.embeddingSize = 4;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Lstm;
  layer.hiddenSize = 8;
  project.model.layers = {layer};
  project.hasData = true;
  project.data.synthetic = engine::SyntheticTask::ReverseCopy;
  project.data.copy = copyConfig(3, 2);
  project.data.copy.trainExamples = 200;
  project.data.copy.validExamples = 20;
  project.data.copy.testExamples = 20;
  project.training.batchSize = 4;
  project.training.bptt = 6;
  project.training.maxSteps = maxSteps;
  project.training.validateEvery = 3;
  project.training.checkpointEvery = 3;
  project.training.threads = 1;
  return project;
}

engine::CopyEvalOptions evalOptions(int64_t length, int64_t examples, int64_t batch) {
  engine::CopyEvalOptions options;
  options.length = length;
  options.examples = examples;
  options.batch = batch;
  options.seed = 3;
  return options;
}

}  // namespace

MRNN_TEST(uniform_model_scores_log2_of_the_vocabulary_on_copied_tokens) {
  // V = 6 tokens, the marker and <eos>: 8 symbols, exactly 3 bits whatever the target.
  const ReverseCopyTask task(copyConfig(6, 4));
  const auto split = task.split(CopyStream::Valid, 30);  // 300 tokens, 120 reversed
  auto model = fixed(task, std::vector<float>(8, 0.0f));
  engine::EvalOptions options;
  options.batch = 1;
  options.bptt = 7;
  auto figures = engine::evaluateStatic(*model, split, options);
  EXPECT_NEAR(figures.bitsPerSymbol, 3.0, 1e-6);
  EXPECT_EQ(figures.symbols, int64_t{120});  // every reversed token is some token's target
  EXPECT_EQ(figures.words, int64_t{0});
  // Held-out text is read as one stream at every batch size (docs/training.md): the same
  // 120 targets with 3 streams.
  options.batch = 3;
  figures = engine::evaluateStatic(*model, split, options);
  EXPECT_EQ(figures.symbols, int64_t{120});
  EXPECT_NEAR(figures.bitsPerSymbol, 3.0, 1e-6);
  options.batch = 1;
  options.maxSymbols = 25;  // positions 1..25: the reversed tokens of examples 1 and 2 only
  EXPECT_EQ(engine::evaluateStatic(*model, split, options).symbols, maskedTargets(26, 1, 4));
}

MRNN_TEST(evaluation_counts_only_the_masked_targets) {
  // Sure of the marker and <eos> (logit 3), even over the tokens: unmasked, the marker and
  // <eos> positions would pull the loss down; masked, every target is a token with
  // p = 1 / (V + 2 e^3) exactly.
  const ReverseCopyTask task(copyConfig(6, 4));
  const auto split = task.split(CopyStream::Test, 25);
  auto model = fixed(task, {0, 0, 0, 0, 0, 0, 3, 3});
  const double expected = std::log(6.0 + 2.0 * std::exp(3.0));  // nats
  engine::EvalOptions options;
  options.batch = 2;
  options.bptt = 9;
  const auto plain = engine::evaluateStatic(*model, split, options);
  EXPECT_NEAR(plain.nats, expected, 1e-5);
  EXPECT_EQ(plain.symbols, maskedTargets(250, 2, 4));
  // Without the mask the same model scores far less (the marker and <eos> are easy).
  engine::CorpusSplit unmasked = split;
  unmasked.targetMask = engine::TokenStream();
  EXPECT(engine::evaluateStatic(*model, unmasked, options).nats < expected - 0.3);

  options.mcSamples = 2;  // no dropout: the same
  EXPECT_NEAR(engine::evaluateStatic(*model, split, options).nats, expected, 1e-5);
  options.mcSamples = 0;
  engine::DynamicEvalConfig dynamic;
  dynamic.variant = engine::DynamicEvalVariant::Sgd;
  dynamic.learningRate = 0.0;
  dynamic.window = 9;
  const auto frozen = engine::evaluateDynamic(*model, split, split, dynamic, options);
  EXPECT_NEAR(frozen.nats, expected, 1e-5);
  EXPECT_EQ(frozen.symbols, int64_t{25 * 4});  // one stream: every reversed token
}

MRNN_TEST(training_step_loss_is_the_mean_over_masked_targets) {
  const ReverseCopyTask task(copyConfig(6, 4));
  const auto split = task.split(CopyStream::Train, 40);
  auto model = fixed(task, {0, 0, 0, 0, 0, 0, 3, 3});
  model->train();
  engine::BatcherOptions batching;
  batching.batch = 3;
  batching.bptt = 11;
  engine::StreamBatcher batcher(split.tokens, batching, split.targetMask);
  const auto window = batcher.next();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.0));
  auto state = model->initialState(3);
  const auto inputs = engine::windowTensor(window.inputs, 11, 3, torch::kCPU);
  const auto targets = engine::windowTensor(window.targets, 11, 3, torch::kCPU);
  const auto mask = engine::windowTensor(window.lossMask, 11, 3, torch::kCPU);
  const auto result =
      engine::optimisationStep(*model, optimizer, state, inputs, targets, mask, 0.0, false);
  EXPECT(result.applied);
  EXPECT_NEAR(result.loss, std::log(6.0 + 2.0 * std::exp(3.0)), 1e-5);
}

MRNN_TEST(trainer_validates_on_the_masked_targets) {
  test::ScratchProject scratch("copy-trainer");
  const auto project = copyProject(scratch.folder().string(), 6);
  std::vector<engine::LossFigures> validations;
  engine::Trainer trainer(project, [&](engine::TrainingEvent event) {
    if (auto* v = std::get_if<engine::ValidationEvent>(&event)) validations.push_back(v->figures);
  });
  engine::StopToken control;
  const auto outcome = trainer.run(control);
  EXPECT_MSG(outcome.finished, outcome.reason);
  EXPECT_EQ(validations.size(), size_t{2});
  // 20 examples of 6 tokens, read as one stream with 4 streams: only their 40 reversed
  // tokens are scored.
  for (const auto& figures : validations) EXPECT_EQ(figures.symbols, maskedTargets(120, 1, 2));
  EXPECT(outcome.test > 0.0 && outcome.test < 10.0);
}

MRNN_TEST(training_on_generated_data_resumes_exactly) {
  // The data are generated again on resume; the same seed must give the same windows, masks
  // included, so 3 + 3 steps end where 6 uninterrupted steps do.
  test::ScratchProject whole("copy-resume-whole");
  test::ScratchProject split("copy-resume-split");
  const auto uninterrupted = trainToEnd(copyProject(whole.folder().string(), 6));
  EXPECT_MSG(uninterrupted.finished, uninterrupted.reason);
  const auto first = trainToEnd(copyProject(split.folder().string(), 3));
  EXPECT_MSG(first.finished, first.reason);
  engine::RunLength length;
  length.maxSteps = 6;
  const auto second =
      trainToEnd(copyProject(split.folder().string(), 3), first.latestCheckpoint, length);
  EXPECT_MSG(second.finished, second.reason);
  EXPECT_EQ(second.steps, int64_t{6});
  const std::string differing =
      firstDifferentWeight(copyProject(whole.folder().string(), 6), uninterrupted.latestCheckpoint,
                           second.latestCheckpoint);
  EXPECT_MSG(differing.empty(), differing << " differs after 3 + 3 steps from 6 uninterrupted");
}

MRNN_TEST(oracle_copy_scores_minus_log2_q_per_token) {
  Oracle oracle(5, 0.5);
  // 50 examples in columns of 8: the last round has 2 real examples and 6 dropped.
  const auto result = engine::evaluateReverseCopy(oracle, evalOptions(6, 50, 8));
  EXPECT(!oracle.malformed);
  EXPECT_EQ(oracle.resets, 1);  // one stream per column, carried from example to example
  EXPECT_EQ(result.tokens, int64_t{5});
  EXPECT_EQ(result.examples, int64_t{50});
  EXPECT_NEAR(result.bitsPerToken, 1.0, 1e-12);
  EXPECT_NEAR(result.tokenAccuracy, 1.0, 0.0);
  EXPECT_NEAR(result.exactFraction, 1.0, 0.0);
  EXPECT_EQ(result.positionBits.size(), size_t{6});
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_NEAR(result.positionBits[k], 1.0, 1e-12);
    EXPECT_NEAR(result.positionAccuracy[k], 1.0, 0.0);
  }
  Oracle surer(5, 0.875);
  EXPECT_NEAR(engine::evaluateReverseCopy(surer, evalOptions(6, 50, 64)).bitsPerToken,
              -std::log2(0.875), 1e-12);
}

MRNN_TEST(oracle_errors_are_counted_where_they_were_put) {
  const int64_t tokens = 5;
  const int64_t length = 6;
  const int64_t examples = 300;
  const int64_t wrongAt = 3;
  const double q = 0.5;
  Oracle oracle(tokens, q, wrongAt);
  const auto result = engine::evaluateReverseCopy(oracle, evalOptions(length, examples, 16));
  EXPECT(!oracle.malformed);

  // The answer from the examples themselves: the fresh stream of the same seed. Position 3's
  // target is x[L - 3]; when it is t0 the oracle backs t1, and t0 gets (1 - q) / (V + 1).
  engine::CopyTaskConfig config = copyConfig(tokens, length);
  const auto inputs = ReverseCopyTask(config).drawInputs(CopyStream::Fresh, examples);
  int64_t zeros = 0;
  for (int64_t e = 0; e < examples; ++e) zeros += inputs[static_cast<size_t>(e * length + 3)] == 0;
  EXPECT(zeros > 30 && zeros < 90);  // about 1 in 5: the test exercises both cases
  const double n = static_cast<double>(examples);
  const double wrongBits = -std::log2((1.0 - q) / static_cast<double>(tokens + 1));
  const double bitsAt3 = (static_cast<double>(zeros) * wrongBits + (n - zeros) * 1.0) / n;
  const double right = (n - static_cast<double>(zeros)) / n;
  EXPECT_NEAR(result.positionBits[2], bitsAt3, 1e-9);
  EXPECT_NEAR(result.positionAccuracy[2], right, 1e-12);
  for (size_t k : {0, 1, 3, 4, 5}) {
    EXPECT_NEAR(result.positionBits[k], 1.0, 1e-12);
    EXPECT_NEAR(result.positionAccuracy[k], 1.0, 0.0);
  }
  EXPECT_NEAR(result.exactFraction, right, 1e-12);
  EXPECT_NEAR(result.tokenAccuracy, (5.0 + right) / 6.0, 1e-12);
  EXPECT_NEAR(result.bitsPerToken, (5.0 + bitsAt3) / 6.0, 1e-9);
}

MRNN_TEST(copy_scores_of_a_model_follow_its_fixed_distribution) {
  // Two tokens and length 2: t1 backed by logit 2, so greedy always says t1; the accuracy is
  // the share of t1 among the copied tokens, an exact copy needs both tokens t1.
  const int64_t examples = 400;
  const ReverseCopyTask task(copyConfig(2, 2));
  auto model = fixed(task, {0, 2, 0, 0});
  const auto result =
      engine::evaluateReverseCopy(*model, task.vocabulary(), evalOptions(2, examples, 32));
  const auto inputs = task.drawInputs(CopyStream::Fresh, examples);
  const double z = std::exp(2.0) + 3.0;
  double bits[2] = {0, 0};
  double ones[2] = {0, 0};
  int64_t exact = 0;
  for (int64_t e = 0; e < examples; ++e) {
    const int64_t* x = inputs.data() + e * 2;
    for (int64_t k = 1; k <= 2; ++k) {
      const int64_t target = x[2 - k];
      bits[k - 1] -= std::log2(target == 1 ? std::exp(2.0) / z : 1.0 / z);
      ones[k - 1] += target == 1;
    }
    exact += x[0] == 1 && x[1] == 1;
  }
  const double n = static_cast<double>(examples);
  for (int k = 0; k < 2; ++k) {
    EXPECT_NEAR(result.positionBits[static_cast<size_t>(k)], bits[k] / n, 1e-5);
    EXPECT_NEAR(result.positionAccuracy[static_cast<size_t>(k)], ones[k] / n, 1e-12);
  }
  EXPECT_NEAR(result.bitsPerToken, (bits[0] + bits[1]) / (2 * n), 1e-5);
  EXPECT_NEAR(result.exactFraction, static_cast<double>(exact) / n, 1e-12);
  EXPECT(exact > 60 && exact < 140);  // about a quarter

  const ReverseCopyTask wide(copyConfig(30, 5));
  auto uniform = fixed(wide, std::vector<float>(32, 0.0f));
  EXPECT_NEAR(
      engine::evaluateReverseCopy(*uniform, wide.vocabulary(), evalOptions(5, 40, 7)).bitsPerToken,
      5.0, 1e-5);
}

MRNN_TEST(copy_evaluation_refuses_what_it_cannot_score) {
  const ReverseCopyTask task(copyConfig(4, 3));
  auto model = fixed(task, std::vector<float>(6, 0.0f));
  const auto letters =
      engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {"a", "b", "c", "d", "e", "f"});
  EXPECT_THROWS_WITH(std::invalid_argument,
                     engine::evaluateReverseCopy(*model, letters, evalOptions(3, 10, 4)),
                     "not a reverse copy vocabulary", "data.synthetic: reverse_copy");
  EXPECT_THROWS_WITH(std::invalid_argument,
                     engine::evaluateReverseCopy(*model, task.vocabulary(), evalOptions(0, 10, 4)),
                     "at least 1");
  EXPECT_THROWS_WITH(std::invalid_argument,
                     engine::evaluateReverseCopy(*model, task.vocabulary(), evalOptions(3, 10, 0)),
                     "at least 1");
  Oracle tiny(0, 0.5);  // two symbols: no room for a token
  EXPECT_THROWS_WITH(std::invalid_argument,
                     engine::evaluateReverseCopy(tiny, evalOptions(3, 10, 4)), "no room");
}

MRNN_TEST(copy_output_writes_every_figure) {
  Oracle oracle(5, 0.5, 2);
  const auto result = engine::evaluateReverseCopy(oracle, evalOptions(4, 20, 8));
  const std::vector<engine::LabelledCopyEvaluation> models = {{"a/project.yaml", "a.pt", result},
                                                              {"b, \"odd\"", "b.pt", result}};
  const std::string json = engine::copyJson(models);
  EXPECT_MSG(json.find("\"task\": \"reverse_copy\"") != std::string::npos, json);
  EXPECT_MSG(json.find("\"bits_per_token\": " + engine::formatDouble(result.bitsPerToken)) !=
                 std::string::npos,
             json);
  const std::string fourth =
      "{\"position\": 4, \"bits\": " + engine::formatDouble(result.positionBits[3]) +
      ", \"accuracy\": 1}";
  EXPECT_MSG(json.find(fourth) != std::string::npos, json);
  EXPECT_MSG(json.find("\"label\": \"b, \\\"odd\\\"\"") != std::string::npos, json);
  const std::string csv = engine::copyCsv(models);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), std::ptrdiff_t{1 + 2 * 5});
  EXPECT_MSG(csv.find("a/project.yaml,5,4,20,3,all," + engine::formatDouble(result.bitsPerToken)) !=
                 std::string::npos,
             csv);
  EXPECT_MSG(csv.find("\"b, \"\"odd\"\"\",5,4,20,3,1," +
                      engine::formatDouble(result.positionBits[0]) + ",1,\n") != std::string::npos,
             csv);
  const std::string table = engine::copyTable(models);
  EXPECT_MSG(table.find("bits/token") != std::string::npos, table);
  EXPECT_MSG(table.find("       4      1.0000      1.0000") != std::string::npos, table);
}
