// Identities the papers state, and parameter counts against the documented formulas.

#include <torch/torch.h>

#include "cell_fixtures.h"
#include "engine/config/parameter_count.h"
#include "engine/models/cell_factory.h"
#include "engine/models/language_model.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;
using engine::CellType;
using engine::LayerConfig;

namespace {

LayerConfig layerOf(CellType type, int64_t hidden, int64_t m = 0) {
  LayerConfig layer;
  layer.type = type;
  layer.hiddenSize = hidden;
  layer.mSize = m;
  return layer;
}

// Copies parameters into `target` by name, renaming with `names` (source -> target).
void copyParameters(engine::RecurrentCell& source, engine::RecurrentCell& target,
                    const std::vector<std::pair<std::string, std::string>>& names) {
  torch::NoGradGuard noGrad;
  auto from = source.named_parameters();
  auto to = target.named_parameters();
  EXPECT_EQ(to.size(), names.size());
  for (const auto& [a, b] : names) to[b].copy_(from[a]);
}

void checkSameOutputs(engine::RecurrentCell& a, engine::RecurrentCell& b, const std::string& what) {
  torch::manual_seed(3);
  const auto x = torch::randn({5, 2, kInput}, torch::kDouble);
  const auto emb = torch::randn({5, 2, kEmbedding}, torch::kDouble);
  engine::CellState sa;
  randomState(a, 2, 4, sa);
  engine::CellState sb = sa;
  const auto ha = a.forward(x, emb, sa);
  const auto hb = b.forward(x, emb, sb);
  EXPECT_MSG(torch::allclose(ha, hb, 0.0, 1e-12), what << ": outputs differ");
  EXPECT_MSG(torch::allclose(sa.parts[1], sb.parts[1], 0.0, 1e-12),
             what << ": memory cells differ");
}

int64_t builtCount(const engine::RecurrentCell& cell) {
  int64_t n = 0;
  for (const auto& p : cell.parameters()) n += p.numel();
  return n;
}

}  // namespace

MRNN_TEST(mogrifier_with_zero_rounds_is_the_lstm) {
  auto lstm = makeRandomCell(layerOf(CellType::Lstm, 4), 1);
  LayerConfig mog = layerOf(CellType::Mogrifier, 4);
  mog.rounds = 0;
  auto mogrifier = makeRandomCell(mog, 2);
  copyParameters(*lstm, *mogrifier, {{"W_x", "W_x"}, {"b", "b"}, {"W_h", "W_h"}});
  checkSameOutputs(*lstm, *mogrifier, "mogrifier r=0");
}

MRNN_TEST(major_minor_without_minor_is_the_lstm) {
  auto lstm = makeRandomCell(layerOf(CellType::Lstm, 4), 1);
  LayerConfig mm = layerOf(CellType::Mmlstm, 4);
  mm.majorShare = 1.0;
  auto majorMinor = makeRandomCell(mm, 2);
  copyParameters(*lstm, *majorMinor,
                 {{"W_x", "W_x_major"}, {"b", "b_major"}, {"W_h", "W_h_major"}});
  checkSameOutputs(*lstm, *majorMinor, "mmlstm share 1.0");
}

MRNN_TEST(mlstm_has_1_25x_the_lstm_recurrent_weights_at_m_equal_h) {
  for (int64_t h : {16, 64, 512}) {
    const auto lstm = engine::makeCell(layerOf(CellType::Lstm, h), 64, 64, {});
    const auto mlstm = engine::makeCell(layerOf(CellType::Mlstm, h, h), 64, 64, {});
    EXPECT_EQ(4 * mlstm->recurrentWeightCount(), 5 * lstm->recurrentWeightCount());
    EXPECT_EQ(lstm->recurrentWeightCount(), 4 * h * h);
  }
}

MRNN_TEST(cell_parameter_counts_equal_the_formulas) {
  std::vector<CellCase> cases = allCellCases();
  for (auto cellCase : allCellCases()) {  // and each again with weight normalisation
    cellCase.layer.weightNorm = true;
    cellCase.label += " +WN";
    cases.push_back(cellCase);
  }
  for (const auto& cellCase : cases) {
    const auto cell = engine::makeCell(cellCase.layer, kInput, kEmbedding, {});
    EXPECT_MSG(builtCount(*cell) == engine::cellParameterCount(cellCase.layer, kInput, kEmbedding),
               cellCase.label << ": built " << builtCount(*cell) << ", formula "
                              << engine::cellParameterCount(cellCase.layer, kInput, kEmbedding));
    EXPECT_MSG(cell->recurrentWeightCount() == engine::cellRecurrentWeightCount(cellCase.layer),
               cellCase.label << ": recurrent weights " << cell->recurrentWeightCount());
  }
}

MRNN_TEST(hand_computed_parameter_counts) {
  // Known answers worked out by hand from the papers' equations (I = 64, H = 512).
  EXPECT_EQ(engine::cellParameterCount(layerOf(CellType::Lstm, 512), 64, 64),
            4 * 512 * 64 + 4 * 512 * 512 + 4 * 512);  // 1,181,696
  EXPECT_EQ(engine::cellParameterCount(layerOf(CellType::Lstm, 512), 64, 64), 1181696);
  EXPECT_EQ(engine::cellParameterCount(layerOf(CellType::Mlstm, 512), 64, 64),
            1476608);                                   // MI + 4HI + MH + 4HM + 4H
  LayerConfig mog = layerOf(CellType::Mogrifier, 512);  // r = 5, k = 40: 5 * 40 * (64 + 512)
  EXPECT_EQ(engine::cellParameterCount(mog, 64, 64), 1181696 + 5 * 40 * 576);
}

MRNN_TEST(model_parameter_counts_equal_the_summary) {
  auto base = [] {
    engine::ModelConfig config;
    config.input.embeddingSize = 12;
    config.layers = {layerOf(CellType::Mlstm, 10, 8)};
    return config;
  };
  std::vector<std::pair<std::string, engine::ModelConfig>> configs;
  configs.push_back({"embedding + softmax", base()});
  {
    auto c = base();
    c.input.embeddingSize = 0;
    configs.push_back({"one-hot input", c});
  }
  {
    auto c = base();
    c.layers.back().hiddenSize = 12;
    c.output.tieEmbeddings = true;
    configs.push_back({"tied softmax", c});
  }
  {
    auto c = base();
    c.output.kind = engine::OutputKind::MixtureOfSoftmaxes;
    c.output.mixtures = 3;
    configs.push_back({"MoS untied", c});
  }
  {
    auto c = base();
    c.output.kind = engine::OutputKind::MixtureOfSoftmaxes;
    c.output.mixtures = 3;
    c.output.tieEmbeddings = true;
    configs.push_back({"MoS tied", c});
  }
  {
    auto c = base();
    LayerConfig mm = layerOf(CellType::Mmlstm, 9);
    mm.majorShare = 0.7;
    LayerConfig mog = layerOf(CellType::Mogrifier, 7);
    mog.rounds = 3;
    mog.rank = 3;
    mog.weightNorm = true;
    c.layers = {layerOf(CellType::Tmgru, 6, 5), mm, mog};
    configs.push_back({"mixed stack", c});
  }
  for (const auto& [label, config] : configs) {
    engine::LanguageModel model(config, 17);
    const auto summary = engine::summarizeModel(config, 17);
    EXPECT_MSG(
        model.parameterCount() == summary.totalParameters,
        label << ": built " << model.parameterCount() << ", summary " << summary.totalParameters);
  }
}
