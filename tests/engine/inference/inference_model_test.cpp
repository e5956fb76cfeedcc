// The frozen single-stream model (engine/inference) against LanguageModel::forward, step by
// step: log-probabilities and every state part, for every cell and variant of the cell
// fixtures, weight normalisation on and off, one-hot and embedding input, tied output, stacks
// mixing cells, larger odd widths, every kernel instruction set, two threads, the Mixture of
// Softmaxes fallback, clamps and output masks; plus the input projections as affine maps and
// the staleness check.

#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "cell_fixtures.h"
#include "engine/inference/single_stream_model.h"
#include "engine/kernels/vector_kernels.h"
#include "engine/models/cell_factory.h"
#include "engine/models/language_model.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;
using engine::LayerConfig;
using engine::ModelConfig;

namespace {

constexpr int64_t kVocab = 11;

ModelConfig modelOf(std::vector<LayerConfig> layers, int64_t embedding, bool weightNorm) {
  ModelConfig config;
  config.input.embeddingSize = embedding;
  for (auto& layer : layers) {
    layer.weightNorm = weightNorm;
    // Without rounds the rank is unused, but the parser refuses one too large for the width.
    if (layer.type == engine::CellType::Mogrifier && layer.rounds == 0) layer.rank = 0;
  }
  config.layers = std::move(layers);
  config.init.seed = 3;
  return config;
}

// Every parameter drawn at random (biases, gains and the MI coefficients included), so no
// term can hide behind a zero or a one.
void randomise(engine::LanguageModel& model, uint64_t seed, double spread = 0.5) {
  torch::NoGradGuard noGrad;
  torch::manual_seed(seed);
  for (auto& parameter : model.parameters()) parameter.normal_(0.0, spread);
}

// Steps the frozen copy and LanguageModel::forward (T = 1, B = 1) through the same random
// symbols; the frozen copy is built from `model` as it stands (clamps and masks included).
void expectSameAsForward(engine::LanguageModel& model, const std::string& label, int steps = 24,
                         int64_t maxTableFloats = engine::SingleStreamModel::kDefaultTableFloats,
                         double tolerance = 1e-5) {
  torch::NoGradGuard noGrad;
  model.eval();
  engine::SingleStreamModel frozen(model, maxTableFloats);
  auto state = model.initialState(1);
  std::mt19937 random(17);
  double worst = 0.0;
  for (int t = 0; t < steps; ++t) {
    const int64_t token = static_cast<int64_t>(random() % static_cast<unsigned>(model.vocab()));
    const auto expected =
        model.forward(torch::full({1, 1}, token, torch::kLong), state).reshape({-1});
    const float* got = frozen.step(token);
    for (int64_t v = 0; v < model.vocab(); ++v) {
      const double difference = std::fabs(got[v] - expected[v].item<double>());
      worst = std::max(worst, difference);
      EXPECT_MSG(difference <= tolerance, label << ", step " << t << ", symbol " << v << ": "
                                                << got[v] << " vs " << expected[v].item<double>());
    }
    for (size_t l = 0; l < model.layerCount(); ++l) {
      const auto& parts = state.layers[l].parts;
      for (size_t p = 0; p < parts.size(); ++p) {
        const auto values = parts[p].reshape({-1});
        const float* mine = frozen.layerState(l, static_cast<int>(p));
        for (int64_t k = 0; k < values.numel(); ++k) {
          EXPECT_MSG(std::fabs(mine[k] - values[k].item<double>()) <= tolerance,
                     label << ", step " << t << ", layer " << l + 1 << " part " << p << " unit "
                           << k << ": " << mine[k] << " vs " << values[k].item<double>());
        }
      }
    }
  }
  EXPECT_MSG(worst > 0.0 || model.vocab() == 1, label << ": suspiciously exact");
}

engine::LanguageModel randomModel(const ModelConfig& config, uint64_t seed,
                                  int64_t vocab = kVocab) {
  engine::LanguageModel model(config, vocab);
  randomise(model, seed);
  return model;
}

struct IsaScope {
  explicit IsaScope(engine::KernelIsa isa) { engine::setKernelIsa(isa); }
  ~IsaScope() { engine::resetKernelIsa(); }
};

}  // namespace

MRNN_TEST(input_affine_equals_project_inputs_for_every_cell) {
  for (const auto& c : allCellCases()) {
    auto cell = makeRandomCell(c.layer, 4);
    torch::NoGradGuard noGrad;
    torch::manual_seed(9);
    const auto x = torch::randn({3, 2, kInput}, torch::kDouble);
    const auto e = torch::randn({3, 2, kEmbedding}, torch::kDouble);
    const auto expected = cell->inputProjection(x, e);
    const auto affine = cell->inputAffine();
    auto got = affine.fromInput.defined() ? torch::matmul(x, affine.fromInput.t()) : x.clone();
    if (affine.fromEmbedding.defined()) got = got + torch::matmul(e, affine.fromEmbedding.t());
    if (affine.bias.defined()) got = got + affine.bias;
    EXPECT_MSG(got.sizes() == expected.sizes(), c.label);
    EXPECT_MSG((got - expected).abs().max().item<double>() < 1e-12, c.label);
  }
}

MRNN_TEST(frozen_steps_equal_forward_for_every_cell) {
  for (const auto& c : allCellCases()) {
    auto model = randomModel(modelOf({c.layer}, kEmbedding, false), 1);
    expectSameAsForward(model, c.label + ", embedding input");
  }
}

MRNN_TEST(frozen_steps_equal_forward_with_weight_norm_and_one_hot_input) {
  for (const auto& c : allCellCases()) {
    auto model = randomModel(modelOf({c.layer}, 0, true), 2);
    expectSameAsForward(model, c.label + ", one-hot input, weight norm");
    auto embedded = randomModel(modelOf({c.layer}, kEmbedding, true), 3);
    expectSameAsForward(embedded, c.label + ", embedding input, weight norm");
  }
}

MRNN_TEST(frozen_steps_equal_forward_with_tied_output) {
  for (const auto& c : allCellCases()) {
    auto config = modelOf({c.layer}, c.layer.hiddenSize, c.layer.type == engine::CellType::Lstm);
    config.output.tieEmbeddings = true;
    auto model = randomModel(config, 4);
    expectSameAsForward(model, c.label + ", tied output");
  }
}

// Each cell over the next one, so every cell reads another cell's output through the
// extracted affine map, and a Major-Minor minor LSTM above layer 1 reads the embedding.
MRNN_TEST(frozen_steps_equal_forward_for_stacks_mixing_cells) {
  const auto cases = allCellCases();
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& below = cases[i];
    const auto& above = cases[(i + 1) % cases.size()];
    const bool oneHot = i % 2 == 1;
    auto model =
        randomModel(modelOf({below.layer, above.layer}, oneHot ? 0 : kEmbedding, i % 3 == 0), 5);
    expectSameAsForward(model, below.label + " under " + above.label +
                                   (oneHot ? ", one-hot input" : ", embedding input"));
  }
  for (int64_t embedding : {int64_t{0}, kEmbedding}) {
    LayerConfig mmlstm;
    mmlstm.type = engine::CellType::Mmlstm;
    mmlstm.hiddenSize = 9;
    mmlstm.majorShare = 0.5;
    LayerConfig gru;
    gru.type = engine::CellType::Gru;
    gru.hiddenSize = 5;
    auto model = randomModel(modelOf({gru, mmlstm, mmlstm}, embedding, false), 6);
    expectSameAsForward(
        model, "gru, then two mmlstm reading the embedding, E=" + std::to_string(embedding));
  }
}

// Widths with full vector blocks and tails; the product form of the input projection
// (tables refused) as well as the tables.
MRNN_TEST(frozen_steps_equal_forward_at_larger_widths) {
  for (const auto& c : allCellCases()) {
    LayerConfig layer = c.layer;
    layer.hiddenSize = layer.type == engine::CellType::Mmlstm ? 41 : 37;
    layer.mSize = 29;
    if (layer.type == engine::CellType::Mogrifier && layer.rank > 0) layer.rank = 7;
    LayerConfig top;
    top.type = engine::CellType::Mlstm;
    top.hiddenSize = 23;
    auto model = randomModel(modelOf({layer, top}, 19, c.label == "lstm"), 7, 53);
    // Smaller weights keep the wider layers out of saturation, where nothing would be tested.
    randomise(model, 7, 0.25);
    expectSameAsForward(model, c.label + " at width 37, tables", 24);
    expectSameAsForward(model, c.label + " at width 37, no tables", 24, /*maxTableFloats=*/0);
  }
}

MRNN_TEST(frozen_steps_equal_forward_on_every_kernel_isa) {
  for (engine::KernelIsa isa : {engine::KernelIsa::Scalar, engine::KernelIsa::Highway}) {
    if (!engine::kernelIsaSupported(isa)) {
      std::printf("INFO   : %s kernels not supported here, not tested\n",
                  engine::kernelIsaName(isa));
      continue;
    }
    IsaScope scope(isa);
    for (const auto& c : allCellCases()) {
      LayerConfig layer = c.layer;
      layer.hiddenSize = layer.type == engine::CellType::Mmlstm ? 35 : 21;
      layer.mSize = 18;
      auto model = randomModel(modelOf({layer}, 17, true), 8, 29);
      randomise(model, 8, 0.3);
      expectSameAsForward(model, c.label + " on " + engine::kernelIsaName(isa));
    }
  }
}

// Large enough that the matrix-vector products split their rows over the threads.
MRNN_TEST(frozen_steps_equal_forward_with_two_threads) {
  const int threads = torch::get_num_threads();
  torch::set_num_threads(2);
  for (engine::CellType type : {engine::CellType::Mlstm, engine::CellType::Gru}) {
    LayerConfig layer;
    layer.type = type;
    layer.hiddenSize = 300;
    auto model = engine::LanguageModel(modelOf({layer}, 32, false), 70);
    expectSameAsForward(model, engine::cellTypeName(type) + " 300 units, 2 threads", 12);
  }
  torch::set_num_threads(threads);
}

MRNN_TEST(mixture_of_softmaxes_head_falls_back_to_the_model) {
  LayerConfig layer;
  layer.type = engine::CellType::Mlstm;
  layer.hiddenSize = 6;
  for (bool tied : {false, true}) {
    auto config = modelOf({layer}, 6, false);
    config.output.kind = engine::OutputKind::MixtureOfSoftmaxes;
    config.output.mixtures = 3;
    config.output.tieEmbeddings = tied;
    auto model = randomModel(config, 9);
    expectSameAsForward(model, tied ? "MoS, tied" : "MoS");
  }
}

MRNN_TEST(clamps_and_output_masks_hold_in_the_frozen_model) {
  LayerConfig mlstm;
  mlstm.type = engine::CellType::Mlstm;
  mlstm.hiddenSize = 6;
  mlstm.mSize = 5;
  LayerConfig gru;
  gru.type = engine::CellType::Gru;
  gru.hiddenSize = 7;
  auto model = randomModel(modelOf({mlstm, gru}, kEmbedding, false), 10);
  model.setClamps({{0, 1, 0.75}, {1, 2, -0.5}, {1, 6, 0.25}});
  expectSameAsForward(model, "clamps");
  model.setOutputMask(0, torch::tensor({1.0f, 0.0f, 1.0f, 0.5f, 0.0f, 1.0f}));
  model.setOutputMask(1, torch::tensor({0.0f, 1.0f, 1.0f, 1.0f, 2.0f, 1.0f, 0.0f}));
  expectSameAsForward(model, "clamps and output masks");
  model.setClamps({});
  expectSameAsForward(model, "output masks");

  // The frozen copy follows the settings when told to, without being rebuilt.
  torch::NoGradGuard noGrad;
  model.clearOutputMasks();
  engine::SingleStreamModel frozen(model);
  model.setClamps({{1, 3, 0.125}});
  frozen.readSettings(model);
  for (int64_t token : {1, 4, 2, 9}) {
    frozen.step(token);
    EXPECT_EQ(frozen.layerState(1, 0)[3], 0.125f);
    EXPECT(frozen.layerState(0, 0)[1] != 0.75f);
  }
  model.setClamps({});
}

MRNN_TEST(stale_weights_are_detected) {
  LayerConfig layer;
  layer.type = engine::CellType::Mlstm;
  layer.hiddenSize = 8;
  auto model = randomModel(modelOf({layer}, kEmbedding, true), 11);
  model.eval();
  engine::SingleStreamModel frozen(model);
  EXPECT(frozen.isCurrent(model));
  frozen.step(3);
  const float before = frozen.step(4)[5];  // the second step: h_{t-1} is no longer zero
  {
    torch::NoGradGuard noGrad;
    model.layer(0).named_parameters()["W_m_g"].mul_(1.5);  // a weight-norm gain
  }
  EXPECT(!frozen.isCurrent(model));
  engine::SingleStreamModel fresh(model);
  EXPECT(fresh.isCurrent(model));
  fresh.step(3);
  EXPECT(fresh.step(4)[5] != before);
  expectSameAsForward(model, "after changing a gain");
  {
    torch::NoGradGuard noGrad;
    model.named_parameters()["output.b"].add_(0.25);
  }
  EXPECT(!fresh.isCurrent(model));
  // Changes that leave the version counter alone (through .data(), as some optimisers write)
  // are seen too: the check compares contents.
  engine::SingleStreamModel again(model);
  EXPECT(again.isCurrent(model));
  model.named_parameters()["input.embedding"].data()[2][1].fill_(0.125);
  EXPECT(!again.isCurrent(model));
}

MRNN_TEST(state_export_and_import_round_trip) {
  LayerConfig layer;
  layer.type = engine::CellType::Lstm;
  layer.hiddenSize = 5;
  auto model = randomModel(modelOf({layer, layer}, kEmbedding, false), 12);
  torch::NoGradGuard noGrad;
  model.eval();
  engine::SingleStreamModel frozen(model);
  for (int64_t token : {1, 2, 3}) frozen.step(token);
  const auto saved = frozen.exportState();
  EXPECT_EQ(saved.layers.size(), size_t{2});
  EXPECT_EQ(saved.layers[1].parts.size(), size_t{2});
  const float* logp = frozen.step(4);
  const std::vector<float> first(logp, logp + kVocab);
  frozen.step(7);
  frozen.step(8);
  // The imported state continues exactly as the original did.
  frozen.importState(saved);
  logp = frozen.step(4);
  for (int64_t v = 0; v < kVocab; ++v) EXPECT_EQ(logp[v], first[v]);
  // And as LanguageModel::forward continues it.
  engine::ModelState state;
  for (const auto& cell : saved.layers) {
    engine::CellState copy;
    for (const auto& part : cell.parts) copy.parts.push_back(part.clone());
    state.layers.push_back(copy);
  }
  const auto expected = model.forward(torch::full({1, 1}, 4, torch::kLong), state).reshape({-1});
  for (int64_t v = 0; v < kVocab; ++v) EXPECT_NEAR(first[v], expected[v].item<double>(), 1e-5);
  frozen.reset();
  for (int part = 0; part < 2; ++part) EXPECT_EQ(frozen.layerState(1, part)[4], 0.0f);
  EXPECT_THROWS_WITH(std::out_of_range, frozen.layerState(0, 2), "no state part 2");
}

MRNN_TEST(unsupported_models_and_symbols_are_refused) {
  LayerConfig layer;
  layer.type = engine::CellType::Gru;
  layer.hiddenSize = 4;
  engine::LanguageModel model(modelOf({layer}, kEmbedding, false), kVocab);
  engine::SingleStreamModel frozen(model);
  EXPECT_THROWS_WITH(std::out_of_range, frozen.step(kVocab), "symbol id 11");
  EXPECT_THROWS_WITH(std::out_of_range, frozen.step(-1), "outside the vocabulary");
  model.to(torch::kDouble);
  EXPECT(!engine::SingleStreamModel::supports(model));
  EXPECT_THROWS_WITH(std::invalid_argument, engine::SingleStreamModel{model}, "float32");
}
