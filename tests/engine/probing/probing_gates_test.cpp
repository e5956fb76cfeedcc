// The gates analysis: every probe of every layer at every step, and Melis §4.4's gate
// statistics, checked on models whose gate values are known in advance.

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

#include "engine/models/language_model.h"
#include "engine/probing/gate_analysis.h"
#include "engine/probing/half_float.h"
#include "engine/probing/probing_output.h"
#include "probing_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;
using engine::CellType;

namespace {

const engine::GateStatistics& statisticsOf(const engine::GateReport& report,
                                           const std::string& name) {
  for (const auto& s : report.statistics) {
    if (s.name == name) return s;
  }
  throw std::runtime_error("no statistics for " + name);
}

}  // namespace

MRNN_TEST(gate_probes_are_the_sigmoid_valued_ones) {
  for (const char* gate : {"i", "f", "o", "z", "r", "major.f", "minor.i"}) {
    EXPECT_MSG(engine::isGateProbe(gate), gate);
  }
  for (const char* other : {"j", "c", "h", "m", "m_i", "x1", "h2", "major.h", "minor.c"}) {
    EXPECT_MSG(!engine::isGateProbe(other), other);
  }
}

MRNN_TEST(statistics_of_known_values) {
  const auto s = engine::gateStatistics("g", true, {0.05f, 0.5f, 0.95f, 0.5f});
  EXPECT_NEAR(s.mean, 0.5, 1e-7);
  // ((-0.45)^2 + 0 + 0.45^2 + 0) / 4, from the float inputs.
  EXPECT_NEAR(s.variance, 0.10125, 1e-7);
  EXPECT_NEAR(s.saturatedFraction, 0.5, 0.0);
  EXPECT_EQ(s.count, 4);
  const auto empty = engine::gateStatistics("e", false, {});
  EXPECT_EQ(empty.count, 0);
}

MRNN_TEST(zero_weights_give_gates_of_exactly_one_half) {
  engine::LanguageModel model(tinyModel({CellType::Lstm, CellType::Gru}), 3);
  fillCellParameters(
      model, [](const std::string&) { return true; }, 0.0);
  const auto vocabulary = tinyVocabulary(3);
  const auto report = engine::analyzeGates(model, vocabulary, "abcabca");
  EXPECT_EQ(report.symbols.size(), size_t{7});
  EXPECT_EQ(report.symbols[2], std::string("c"));
  int gates = 0;
  for (const auto& s : report.statistics) {
    EXPECT_EQ(s.count, 7 * 4);
    if (!s.isGate) continue;
    ++gates;
    EXPECT_NEAR(s.mean, 0.5, 0.0);
    EXPECT_NEAR(s.variance, 0.0, 0.0);
    EXPECT_NEAR(s.saturatedFraction, 0.0, 0.0);
  }
  EXPECT_EQ(gates, 5);  // layer1 i f o, layer2 z r
  EXPECT(statisticsOf(report, "layer1/f").isGate);
  EXPECT(statisticsOf(report, "layer2/r").isGate);
  EXPECT(!statisticsOf(report, "layer1/j").isGate);
  EXPECT(!statisticsOf(report, "layer2/h").isGate);
  // j = tanh(0) = 0, so c and h stay 0.
  EXPECT_NEAR(statisticsOf(report, "layer1/c").mean, 0.0, 0.0);
}

MRNN_TEST(a_large_forget_bias_saturates_the_forget_gate) {
  const int64_t hidden = 4;
  engine::LanguageModel model(tinyModel({CellType::Lstm}, hidden), 3);
  {
    torch::NoGradGuard noGrad;
    auto params = model.named_parameters();
    params["layer1.b"].zero_();
    params["layer1.b"].slice(0, hidden, 2 * hidden).fill_(10.0);  // gate order i f o j
  }
  const auto report = engine::analyzeGates(model, tinyVocabulary(3), "abcbac");
  const auto f = statisticsOf(report, "layer1/f");
  EXPECT_NEAR(f.saturatedFraction, 1.0, 0.0);
  EXPECT(f.mean > 0.9);
  EXPECT(statisticsOf(report, "layer1/i").saturatedFraction < 1.0);
}

MRNN_TEST(traces_are_the_recorders_stacked_probes) {
  engine::LanguageModel model(tinyModel({CellType::Mlstm, CellType::Lstm}, 5, 3), 4);
  const auto vocabulary = tinyVocabulary(4);
  const std::string text = "abcddcbaabd";
  engine::GateOptions options;
  options.window = 3;  // several windows, state carried: still one pass over the text
  const auto report = engine::analyzeGates(model, vocabulary, text, options);

  torch::NoGradGuard noGrad;
  model.eval();
  engine::ProbeRecorder recorder;
  auto state = model.initialState(1);
  const auto ids = vocabulary.encode(text);
  model.forward(torch::tensor(ids, torch::kLong).unsqueeze(1), state, &recorder);
  EXPECT_EQ(report.traces.size(), recorder.names().size());
  for (size_t n = 0; n < report.traces.size(); ++n) {
    const auto& trace = report.traces[n];
    EXPECT_EQ(trace.name, recorder.names()[n]);
    const auto expected = recorder.stacked(trace.name).reshape({trace.steps, -1});
    EXPECT_EQ(trace.steps, static_cast<int64_t>(text.size()));
    EXPECT_EQ(trace.units, expected.size(1));
    for (int64_t t = 0; t < trace.steps; ++t) {
      for (int64_t u = 0; u < trace.units; ++u) {
        EXPECT_NEAR(trace.at(t, u), expected[t][u].item<float>(), 1e-6);
      }
    }
  }
  EXPECT_EQ(report.traces.front().layer, 1);
  EXPECT_EQ(report.traces.front().probe, std::string("m"));
  EXPECT_EQ(report.traces.back().layer, 2);
}

MRNN_TEST(float16_storage_round_trips_within_1e_3) {
  engine::LanguageModel model(tinyModel({CellType::Lstm}, 6), 4);
  const auto vocabulary = tinyVocabulary(4);
  const auto full = engine::analyzeGates(model, vocabulary, "abcdabcdab");
  engine::GateOptions options;
  options.float16 = true;
  const auto half = engine::analyzeGates(model, vocabulary, "abcdabcdab", options);
  EXPECT_EQ(half.traces.size(), full.traces.size());
  for (size_t n = 0; n < full.traces.size(); ++n) {
    EXPECT(half.traces[n].isHalf());
    EXPECT(half.traces[n].values.empty());
    const auto a = full.traces[n].floats();
    const auto b = half.traces[n].floats();
    EXPECT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-3);
    // Statistics come from the float32 values either way.
    EXPECT_NEAR(half.statistics[n].variance, full.statistics[n].variance, 0.0);
  }
}

MRNN_TEST(half_conversion_matches_libtorch) {
  EXPECT_EQ(engine::floatToHalf(1.0f), uint16_t{0x3c00});
  EXPECT_EQ(engine::floatToHalf(0.5f), uint16_t{0x3800});
  EXPECT_EQ(engine::floatToHalf(-2.0f), uint16_t{0xc000});
  EXPECT_EQ(engine::floatToHalf(65504.0f), uint16_t{0x7bff});
  EXPECT_EQ(engine::floatToHalf(1e6f), uint16_t{0x7c00});
  EXPECT_NEAR(engine::halfToFloat(0x0001), std::ldexp(1.0, -24), 0.0);  // smallest subnormal
  torch::manual_seed(3);
  const auto values = torch::cat({torch::randn({2000}) * 4, torch::rand({2000}) * 1e-5,
                                  torch::tensor({0.0f, -0.0f, 1.0f / 3.0f, 2049.0f, 2051.0f})});
  const auto halves = values.to(torch::kHalf).to(torch::kFloat);
  for (int64_t i = 0; i < values.numel(); ++i) {
    const float v = values[i].item<float>();
    const float expected = halves[i].item<float>();
    const float mine = engine::halfToFloat(engine::floatToHalf(v));
    EXPECT_MSG(mine == expected, "value " << v << ": " << mine << " vs LibTorch " << expected);
  }
}

MRNN_TEST(gate_outputs_render_every_trace) {
  engine::LanguageModel model(tinyModel({CellType::Gru}, 2), 2);
  const auto report = engine::analyzeGates(model, tinyVocabulary(2), "ab");
  const std::string table = engine::gateStatisticsTable(report);
  EXPECT(table.find("layer1/z") != std::string::npos);
  const std::string json = engine::gateReportJson(report);
  EXPECT(json.find("\"name\": \"layer1/r\"") != std::string::npos);
  EXPECT(json.find("\"storage\": \"float32\"") != std::string::npos);
  const std::string csv = engine::gateReportCsv(report);
  // Header + probes (z r j h) x 2 steps x 2 units.
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4 * 2 * 2);
}

MRNN_TEST(an_empty_or_foreign_text_is_refused) {
  engine::LanguageModel model(tinyModel({CellType::Lstm}), 3);
  const auto vocabulary = tinyVocabulary(3);
  EXPECT_THROWS_WITH(std::invalid_argument, engine::analyzeGates(model, vocabulary, ""), "empty");
  EXPECT_THROWS_WITH(std::invalid_argument, engine::analyzeGates(model, vocabulary, "abz"), "z");
}
