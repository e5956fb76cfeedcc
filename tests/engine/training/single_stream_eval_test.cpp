// Exact held-out figures on the frozen single-stream copy: for every cell, evaluateStatic read
// as one stream on the copy gives the figure of the text read through LanguageModel::forward
// one window at a time from the zero state (the definition), to 1e-6 bits per symbol, with a
// target mask, at a temperature, for every temperature of a tuning in one reading, and with
// masks drawn per window; the streams give it too. The road is chosen from the model and the
// text alone, and a run's recorded test figure is what `mrnn eval` computes, busy or idle.

#include <torch/torch.h>

#include <cmath>
#include <random>

#include "engine/config/cell_type.h"
#include "engine/data/corpus.h"
#include "engine/models/language_model.h"
#include "engine/runtime/busy_core.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/training/evaluator.h"
#include "engine/training/held_out_reading.h"
#include "engine/training/training_data.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"

using namespace mrnn;

namespace {

constexpr int64_t kSingleVocab = 11;

// A text with structure for a model to lean on: runs of a rising pattern, with noise.
engine::CorpusSplit patternSplit(int64_t length, bool masked) {
  std::mt19937 random(5);
  std::vector<int64_t> ids, mask;
  for (int64_t i = 0; i < length; ++i) {
    ids.push_back(random() % 7 == 0 ? static_cast<int64_t>(random() % kSingleVocab)
                                    : (i / 3) % kSingleVocab);
    mask.push_back(i % 4 == 0 ? 0 : 1);
  }
  engine::CorpusSplit split;
  split.tokens = engine::TokenStream::fromIds(ids, kSingleVocab);
  if (masked) split.targetMask = engine::TokenStream::fromIds(mask, 2);
  return split;
}

// A float32 model of one small layer, its parameters spread wide enough that predictions
// depend on the context.
engine::LanguageModel spreadModel(engine::CellType type, uint64_t seed) {
  engine::ModelConfig config;
  config.input.embeddingSize = 8;
  engine::LayerConfig layer;
  layer.type = type;
  layer.hiddenSize = 24;
  layer.rank = 4;  // the Mogrifier's low rank, below the input width
  config.layers = {layer};
  engine::LanguageModel model(config, kSingleVocab);
  torch::NoGradGuard noGrad;
  torch::manual_seed(seed);
  for (auto& parameter : model.parameters()) parameter.normal_(0.0, 0.25);
  model.eval();
  return model;
}

// The definition: the text read through forward() one window at a time from the zero state,
// at temperature T, summing the targets the mask keeps. Bits per counted target. With
// `carry` false each window starts from the zero state instead: not the definition.
double definitionBits(engine::LanguageModel& model, const engine::CorpusSplit& split,
                      double temperature, bool carry = true) {
  torch::NoGradGuard noGrad;
  auto state = model.initialState(1);
  const int64_t targets = split.tokens.size() - 1;
  double nats = 0.0;
  int64_t counted = 0;
  for (int64_t at = 0; at < targets; at += 37) {
    const int64_t steps = std::min<int64_t>(37, targets - at);
    if (!carry) state = model.initialState(1);
    std::vector<int64_t> ids(static_cast<size_t>(steps + 1));
    split.tokens.copy(at, steps + 1, ids.data());
    const auto inputs =
        torch::tensor(std::vector<int64_t>(ids.begin(), ids.end() - 1)).view({steps, 1});
    const auto logp = torch::log_softmax(
        model.forward(inputs, state).squeeze(1).to(torch::kDouble) / temperature, -1);
    for (int64_t t = 0; t < steps; ++t) {
      if (split.targetMask.size() > 0 && split.targetMask.at(at + t + 1) == 0) continue;
      nats -= logp[t][ids[static_cast<size_t>(t + 1)]].item<double>();
      ++counted;
    }
  }
  return nats / static_cast<double>(counted) / std::log(2.0);
}

engine::EvalOptions readingAs(engine::HeldOutReading reading, int64_t batch) {
  engine::EvalOptions options;
  options.reading = reading;
  options.batch = batch;
  options.bptt = 20;
  return options;
}

}  // namespace

MRNN_TEST(single_stream_figures_equal_the_definition_for_every_cell) {
  torch::set_num_threads(1);
  for (const bool masked : {false, true}) {
    const auto split = patternSplit(1500, masked);
    for (const auto type : engine::allCellTypes()) {
      auto model = spreadModel(type, 3);
      const std::string label = engine::cellTypeName(type) + (masked ? ", masked" : "");
      for (const double temperature : {1.0, 0.7}) {
        auto options = readingAs(engine::HeldOutReading::SingleStream, 1);
        options.temperature = temperature;
        const double expected = definitionBits(model, split, temperature);
        const auto single = engine::evaluateStatic(model, split, options);
        EXPECT_MSG(
            std::fabs(single.bitsPerSymbol - expected) <= 1e-6,
            label << ", T " << temperature << ": " << single.bitsPerSymbol << " vs " << expected);
        EXPECT_EQ(single.symbols, masked ? int64_t{1125} : int64_t{1499});
        // The streams' road at batch 1 is the definition too.
        const auto streams = engine::evaluateStatic(model, split, [&] {
          auto o = readingAs(engine::HeldOutReading::Streams, 1);
          o.temperature = temperature;
          return o;
        }());
        EXPECT_MSG(
            std::fabs(streams.bitsPerSymbol - single.bitsPerSymbol) <= 1e-6,
            label << ": streams " << streams.bitsPerSymbol << ", single " << single.bitsPerSymbol);
      }
      // The figure depends on the state carried across windows: a reading that dropped it
      // would not pass.
      EXPECT_MSG(std::fabs(definitionBits(model, split, 1.0) -
                           definitionBits(model, split, 1.0, false)) > 1e-4,
                 label << ": the carried state changes nothing");
    }
  }
}

MRNN_TEST(the_chosen_road_gives_the_same_figure) {
  torch::set_num_threads(1);
  const auto split = patternSplit(6000, false);
  for (const auto type : {engine::CellType::Lstm, engine::CellType::Mlstm}) {
    auto model = spreadModel(type, 8);
    const double expected = definitionBits(model, split, 1.0);
    // 8 streams of 20-symbol windows over 6,000 symbols: long enough for either road.
    const auto fastest =
        engine::evaluateStatic(model, split, readingAs(engine::HeldOutReading::Chosen, 8));
    EXPECT_MSG(std::fabs(fastest.bitsPerSymbol - expected) <= 1e-4,
               engine::cellTypeName(type) << ": " << fastest.bitsPerSymbol << " vs " << expected);
    EXPECT_EQ(fastest.symbols, int64_t{5999});
  }
}

MRNN_TEST(tuning_reads_every_temperature_in_one_single_stream_reading) {
  torch::set_num_threads(1);
  const auto split = patternSplit(800, false);
  auto model = spreadModel(engine::CellType::Mlstm, 4);
  const auto options = readingAs(engine::HeldOutReading::SingleStream, 1);
  const auto [temperature, figures] = engine::tuneTemperature(model, split, options, 0.5, 1.5, 5);
  // Each temperature read on its own, by the streams' road.
  double best = 0.0;
  double bestNats = INFINITY;
  for (int k = 0; k < 5; ++k) {
    auto each = readingAs(engine::HeldOutReading::Streams, 1);
    each.temperature = 0.5 + 0.25 * k;
    const double nats = engine::evaluateStatic(model, split, each).nats;
    if (nats < bestNats) {
      bestNats = nats;
      best = each.temperature;
    }
  }
  EXPECT_NEAR(temperature, best, 1e-12);
  EXPECT_NEAR(figures.nats, bestNats, 1e-6);
}

MRNN_TEST(masks_drawn_per_window_reach_the_single_stream) {
  torch::set_num_threads(1);
  const auto split = patternSplit(600, false);
  auto model = spreadModel(engine::CellType::Gru, 6);
  // The same draws on both roads: a window's mask zeroes every other unit, alternating.
  const auto drawn = [&](engine::HeldOutReading reading) {
    auto options = readingAs(reading, 1);
    int64_t windows = 0;
    options.beforeWindow = [&](int64_t streams) {
      auto mask = torch::ones({streams, 24});
      mask.slice(1, windows % 2, 24, 2).zero_();
      model.setOutputMask(0, mask);
      ++windows;
    };
    const auto figures = engine::evaluateStatic(model, split, options);
    model.clearOutputMasks();
    return std::make_pair(figures.bitsPerSymbol, windows);
  };
  const auto [single, singleWindows] = drawn(engine::HeldOutReading::SingleStream);
  const auto [streams, streamWindows] = drawn(engine::HeldOutReading::Streams);
  EXPECT_EQ(singleWindows, int64_t{30});
  EXPECT_EQ(singleWindows, streamWindows);
  EXPECT_MSG(std::fabs(single - streams) <= 1e-6, single << " vs " << streams);
  const double unmasked =
      engine::evaluateStatic(model, split, readingAs(engine::HeldOutReading::SingleStream, 1))
          .bitsPerSymbol;
  EXPECT_MSG(std::fabs(unmasked - single) > 1e-3, "the masks changed nothing");
}

MRNN_TEST(the_road_is_chosen_from_the_model_and_the_text_alone) {
  auto small = spreadModel(engine::CellType::Mlstm, 3);
  EXPECT(engine::chooseReading(small, 1'000'000, 16, 100) == engine::HeldOutReading::SingleStream);
  EXPECT(engine::chooseReading(small, 1'000'000, 1, 100) == engine::HeldOutReading::SingleStream);
  engine::ModelConfig config;
  config.input.embeddingSize = 32;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Lstm;
  layer.hiddenSize = 800;  // 5.1M recurrent weights: 20 MB read a step
  config.layers = {layer};
  engine::LanguageModel large(config, kSingleVocab);
  EXPECT(engine::chooseReading(large, 1'000'000, 16, 100) == engine::HeldOutReading::Streams);
  // Too short a text for 32 windows a stream: one stream.
  EXPECT(engine::chooseReading(large, 30 * 16 * 100, 16, 100) ==
         engine::HeldOutReading::SingleStream);
}

// The defect: a run recorded "test: 2.124815" and `mrnn eval --split test` on the same best
// checkpoint gave 2.125323: a race on the machine's timings chose the road. Now the recorded
// figure is eval's, to the bit, on an idle and on a busy machine, and says its road.
MRNN_TEST(a_runs_recorded_test_figure_is_what_eval_computes_busy_or_idle) {
  test::ScratchProject scratch("recorded_test_figure");
  engine::Project project = scratch.project(30000);
  project.training.maxSteps = 8;
  project.training.validateEvery = 4;
  project.training.validationSymbols = 300;  // validations short; the test reads its whole split
  const auto outcome = test::trainToEnd(project);
  EXPECT_MSG(outcome.finished, outcome.reason);
  engine::RunStore store(engine::RunPaths::database(scratch.folder().string()));
  const auto run = store.run(outcome.runId);
  EXPECT(run && run->testResult);
  const auto road = store.metrics(outcome.runId, engine::metric::kTestReadingStreams);
  EXPECT_EQ(road.size(), size_t{1});
  const auto evaluate = [&] {
    auto model = test::loadWeights(project, outcome.bestCheckpoint);
    engine::TrainingData data(project, [](const std::string&) {});
    engine::EvalOptions options;
    options.batch = project.evaluation.batchSize;
    options.bptt = project.evaluation.bptt;
    return data.evaluate(engine::TrainingData::HeldOut::Test, *model, options, nullptr);
  };
  const auto idle = evaluate();
  EXPECT_EQ(idle.bitsPerSymbol, *run->testResult);
  EXPECT_EQ(static_cast<double>(idle.readingStreams), road.front().value);
  engine::BusyCore first(0);
  engine::BusyCore second(1);
  const auto busy = evaluate();
  EXPECT_EQ(busy.bitsPerSymbol, *run->testResult);
}
