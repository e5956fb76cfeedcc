// Exact held-out figures on the frozen single-stream copy: for every cell, evaluateStatic read
// as one stream on the copy gives the figure of the text read through LanguageModel::forward
// one window at a time from the zero state (the definition), to 1e-6 bits per symbol, with a
// target mask, at a temperature, for every temperature of a tuning in one reading, and with
// masks drawn per window; the streams, whichever road the race takes, give it too.

#include <torch/torch.h>

#include <cmath>
#include <random>

#include "engine/config/cell_type.h"
#include "engine/data/corpus.h"
#include "engine/models/language_model.h"
#include "engine/training/evaluator.h"
#include "test_harness.h"

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

MRNN_TEST(the_race_between_the_roads_gives_the_same_figure) {
  torch::set_num_threads(1);
  const auto split = patternSplit(6000, false);
  for (const auto type : {engine::CellType::Lstm, engine::CellType::Mlstm}) {
    auto model = spreadModel(type, 8);
    const double expected = definitionBits(model, split, 1.0);
    // 8 streams of 20-symbol windows over 6,000 symbols: long enough for the race to run.
    const auto fastest =
        engine::evaluateStatic(model, split, readingAs(engine::HeldOutReading::Fastest, 8));
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
