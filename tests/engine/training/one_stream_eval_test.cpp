// Held-out evaluation measures the text read as one stream, state carried from its first
// symbol (as the papers report), at every evaluation batch size: a model trained here on tiny
// shakespeare is scored by evaluateStatic with B streams and by a plain batch-1 loop written
// out in this test, and the two agree within 0.02 bits per symbol.

#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "engine/data/corpus.h"
#include "engine/data/stream_batcher.h"
#include "engine/training/evaluator.h"
#include "engine/training/one_stream_scorer.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

torch::Tensor column(const std::vector<int64_t>& ids) {
  return torch::tensor(ids, torch::kLong).reshape({static_cast<int64_t>(ids.size()), 1});
}

// The split read as one stream from a zero state, window by window: the definition itself.
double oneStreamNats(engine::LanguageModel& model, const engine::TokenStream& tokens,
                     int64_t window) {
  torch::NoGradGuard noGrad;
  model.eval();
  auto state = model.initialState(1);
  double nats = 0.0;
  const int64_t targets = tokens.size() - 1;
  for (int64_t at = 0; at < targets; at += window) {
    const int64_t steps = std::min(window, targets - at);
    std::vector<int64_t> ids(static_cast<size_t>(steps + 1));
    tokens.copy(at, steps + 1, ids.data());
    const std::vector<int64_t> inputs(ids.begin(), ids.end() - 1);
    const std::vector<int64_t> next(ids.begin() + 1, ids.end());
    const auto logp = model.forward(column(inputs), state);
    nats -= logp.gather(2, column(next).unsqueeze(2)).sum().item<double>();
  }
  return nats / static_cast<double>(targets);
}

// The split read as B cold streams, each from a zero state, the remainder dropped: what
// evaluation computed before it read the text as one stream.
double coldStreamsNats(engine::LanguageModel& model, const engine::TokenStream& tokens,
                       int64_t batch, int64_t window) {
  torch::NoGradGuard noGrad;
  engine::BatcherOptions batching;
  batching.batch = batch;
  batching.bptt = window;
  engine::StreamBatcher batcher(tokens, batching);
  auto state = model.initialState(batch);
  double nats = 0.0;
  int64_t count = 0;
  for (bool first = true;; first = false) {
    const auto w = batcher.next();
    if (w.epochStart && !first) break;
    const auto inputs = torch::tensor(w.inputs, torch::kLong).reshape({w.steps, w.batch});
    const auto targets = torch::tensor(w.targets, torch::kLong).reshape({w.steps, w.batch});
    nats -= model.forward(inputs, state).gather(2, targets.unsqueeze(2)).sum().item<double>();
    count += w.steps * w.batch;
  }
  return nats / static_cast<double>(count);
}

// An LSTM trained briefly on tiny shakespeare: enough to lean on its context, so that a cold
// start in the middle of the text costs it bits.
void train(engine::LanguageModel& model, const engine::CorpusSplit& split, int64_t steps) {
  engine::BatcherOptions batching;
  batching.batch = 32;
  batching.bptt = 64;
  engine::StreamBatcher batcher(split.tokens, batching);
  torch::optim::Adam adam(model.parameters(), torch::optim::AdamOptions(0.01));
  auto state = model.initialState(batching.batch);
  model.train();
  for (int64_t step = 0; step < steps; ++step) {
    const auto window = batcher.next();
    if (window.epochStart) state = model.initialState(batching.batch);
    const auto inputs =
        torch::tensor(window.inputs, torch::kLong).reshape({window.steps, window.batch});
    const auto targets =
        torch::tensor(window.targets, torch::kLong).reshape({window.steps, window.batch});
    adam.zero_grad();
    const auto logp = model.forward(inputs, state);
    const auto loss = -logp.gather(2, targets.unsqueeze(2)).mean();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model.parameters(), 1.0);
    adam.step();
    state.detach();
  }
  model.eval();
}

}  // namespace

MRNN_TEST(batched_evaluation_equals_one_stream_at_every_batch_size) {
  const std::string path = std::string(MRNN_SHARED_DIR) + "/data/tinyshakespeare/input.txt";
  if (!std::filesystem::exists(path)) MRNN_SKIP("shared corpus not found: " + path);
  torch::manual_seed(7);
  torch::set_num_threads(2);
  engine::DataConfig data;
  data.train = path;
  data.validFraction = 0.01;
  data.testFraction = 0.01;
  const auto corpus = engine::loadCorpus(data, engine::InputLevel::Char, "");
  engine::ModelConfig config;
  config.input.embeddingSize = 32;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Lstm;
  layer.hiddenSize = 128;
  config.layers = {layer};
  engine::LanguageModel model(config, corpus.vocabulary.size());
  train(model, corpus.train, 600);

  engine::EvalOptions options;
  options.bptt = 50;
  options.maxSymbols = 8000;
  const auto text = corpus.valid.tokens.slice(0, options.maxSymbols + 1);
  const double reference = oneStreamNats(model, text, 50) / std::log(2.0);
  std::printf("one stream: %.4f bits/char over %lld symbols\n", reference,
              static_cast<long long>(text.size() - 1));
  EXPECT_MSG(reference < 3.3, "the model did not learn: " << reference << " bits/char");
  // The test has teeth: cold streams at a large batch miss the one-stream figure by far more
  // than the tolerance.
  const double cold = coldStreamsNats(model, text, 256, 50) / std::log(2.0);
  std::printf("256 cold streams: %.4f bits/char\n", cold);
  EXPECT_MSG(cold - reference > 0.1, "cold " << cold << ", one stream " << reference);
  for (const int64_t batch : {1, 2, 7, 16, 64, 256, 1000}) {
    options.batch = batch;
    const auto figures = engine::evaluateStatic(model, corpus.valid, options);
    std::printf("batch %4lld: %.4f bits/char over %lld symbols\n", static_cast<long long>(batch),
                figures.bitsPerSymbol, static_cast<long long>(figures.symbols));
    EXPECT_EQ(figures.symbols, options.maxSymbols);
    EXPECT_MSG(std::fabs(figures.bitsPerSymbol - reference) <= 0.02,
               "batch " << batch << ": " << figures.bitsPerSymbol << " bits/char, one stream "
                        << reference);
  }
}

// The rounds stop early for a model that forgets its start (few steps re-read), and still give
// the one-stream score for one that never does (a state carried unchanged: every stream re-read
// to its end, round after round).
MRNN_TEST(rounds_reread_only_until_the_readings_meet) {
  std::vector<int64_t> ids;
  for (int i = 0; i < 401; ++i) ids.push_back(i % 5);
  const auto tokens = engine::TokenStream::fromIds(ids, 5);
  engine::OneStreamOptions options;
  options.batch = 8;
  options.bptt = 10;
  // A "model" whose state is the count of symbols read so far, and whose loss for a target is
  // that count times 1e-3: the one-stream total is known in closed form.
  const auto initial = [](int64_t batch) {
    engine::ModelState state;
    engine::CellState cell;
    cell.parts.push_back(torch::zeros({batch, 1}, torch::kDouble));
    state.layers.push_back(cell);
    return std::vector<engine::ModelState>{state};
  };
  const auto counting = [](const torch::Tensor& inputs, const torch::Tensor&,
                           std::vector<engine::ModelState>& states) {
    auto& count = states[0].layers[0].parts[0];  // [b, 1]
    const int64_t steps = inputs.size(0);
    std::vector<torch::Tensor> rows;
    for (int64_t t = 0; t < steps; ++t) {
      count = count + 1.0;
      rows.push_back(count.squeeze(1) * 1e-3);
    }
    return torch::stack(rows);
  };
  const auto totals = engine::scoreAsOneStream(tokens, {}, options, initial, counting);
  double expected = 0.0;
  for (int k = 1; k <= 400; ++k) expected += k * 1e-3;
  EXPECT_EQ(totals.positions, int64_t{400});
  EXPECT_NEAR(totals.nats, expected, 1e-9);
  EXPECT_EQ(totals.rounds, 7);  // never forgets: each round fixes one more stream

  // A model that forgets: the state is the last symbol read, the loss the state.
  const auto forgetting = [](const torch::Tensor& inputs, const torch::Tensor&,
                             std::vector<engine::ModelState>& states) {
    auto& last = states[0].layers[0].parts[0];
    std::vector<torch::Tensor> rows;
    for (int64_t t = 0; t < inputs.size(0); ++t) {
      last = inputs[t].to(torch::kDouble).unsqueeze(1);
      rows.push_back(last.squeeze(1));
    }
    return torch::stack(rows);
  };
  const auto quick = engine::scoreAsOneStream(tokens, {}, options, initial, forgetting);
  double sum = 0.0;
  for (int k = 0; k < 400; ++k) sum += ids[static_cast<size_t>(k)];
  EXPECT_NEAR(quick.nats, sum, 1e-9);
  EXPECT_EQ(quick.rounds, 1);
  EXPECT_EQ(quick.rereadSteps, int64_t{7 * 10});  // one window of each of streams 1..7
}
