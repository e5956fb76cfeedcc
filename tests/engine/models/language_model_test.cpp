// The stacked model: output distributions, probes, tying, and the regularisers (variational
// dropout shared over time, token dropout, weight drop, weight normalisation).

#include <torch/torch.h>

#include "cell_fixtures.h"
#include "engine/models/cell_factory.h"
#include "engine/models/input_layer.h"
#include "engine/models/language_model.h"
#include "engine/models/recurrent_weight.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;
using engine::CellType;

namespace {

engine::ModelConfig smallModel(engine::OutputKind kind) {
  engine::ModelConfig config;
  config.input.embeddingSize = 8;
  engine::LayerConfig a;
  a.type = CellType::Mlstm;
  a.hiddenSize = 10;
  engine::LayerConfig b;
  b.type = CellType::Mmlstm;
  b.hiddenSize = 8;
  b.majorShare = 0.75;
  config.layers = {a, b};
  config.output.kind = kind;
  config.output.mixtures = 4;
  return config;
}

}  // namespace

MRNN_TEST(outputs_are_normalised_distributions) {
  for (auto kind : {engine::OutputKind::Softmax, engine::OutputKind::MixtureOfSoftmaxes}) {
    engine::LanguageModel model(smallModel(kind), 13);
    model.eval();
    auto state = model.initialState(3);
    const auto tokens = torch::randint(0, 13, {7, 3}, torch::kLong);
    const auto logp = model.forward(tokens, state);
    EXPECT_EQ(logp.sizes(), (std::vector<int64_t>{7, 3, 13}));
    const auto total = logp.exp().sum(-1);
    EXPECT(torch::allclose(total, torch::ones_like(total), 1e-5, 1e-5));
  }
}

MRNN_TEST(same_seed_builds_the_same_model) {
  const auto config = smallModel(engine::OutputKind::Softmax);
  engine::LanguageModel a(config, 13);
  engine::LanguageModel b(config, 13);
  auto pa = a.parameters();
  auto pb = b.parameters();
  for (size_t i = 0; i < pa.size(); ++i) EXPECT(torch::equal(pa[i], pb[i]));
  auto other = config;
  other.init.seed = 2;
  engine::LanguageModel c(other, 13);
  EXPECT(!torch::equal(c.parameters().front(), pa.front()));
}

MRNN_TEST(probes_are_named_by_layer) {
  engine::LanguageModel model(smallModel(engine::OutputKind::Softmax), 13);
  auto state = model.initialState(2);
  engine::ProbeRecorder probes;
  model.forward(torch::zeros({4, 2}, torch::kLong), state, &probes);
  EXPECT(probes.has("layer1/m"));
  EXPECT(probes.has("layer1/f"));
  EXPECT(probes.has("layer2/major.i"));
  EXPECT(probes.has("layer2/minor.h"));
  EXPECT_EQ(probes.stacked("layer1/m").sizes(), (std::vector<int64_t>{4, 2, 10}));
  EXPECT_EQ(probes.stacked("layer2/h").sizes(), (std::vector<int64_t>{4, 2, 8}));
}

MRNN_TEST(tied_output_uses_the_embedding) {
  auto config = smallModel(engine::OutputKind::Softmax);
  config.output.tieEmbeddings = true;
  engine::LanguageModel model(config, 13);
  model.eval();
  auto run = [&] {
    auto state = model.initialState(1);
    return model.forward(torch::tensor({{3}}, torch::kLong), state).clone();
  };
  const auto before = run();
  {
    torch::NoGradGuard noGrad;
    // Row 5 of the embedding is symbol 5's output vector too: changing it moves p(5).
    model.named_parameters()["input.embedding"][5].add_(1.0);
  }
  const auto after = run();
  EXPECT(std::fabs(after[0][0][5].item<double>() - before[0][0][5].item<double>()) > 1e-4);
  EXPECT(!model.named_parameters().contains("output.W"));
}

MRNN_TEST(embedding_dropout_mask_is_shared_over_time) {
  engine::InputConfig input;
  input.embeddingSize = 64;
  engine::DropoutConfig dropout;
  dropout.embedding = 0.5;
  engine::InputLayer layer(input, 9, dropout);
  layer.train();
  torch::manual_seed(1);
  const auto out = layer.forward(torch::full({6, 2}, 4, torch::kLong));  // one symbol throughout
  for (int64_t t = 1; t < 6; ++t) EXPECT(torch::equal(out[t], out[0]));
  const auto zeros = (out[0] == 0).sum().item<int64_t>();
  EXPECT_MSG(zeros > 20 && zeros < 108, "zeroed features: " << zeros << " of 128");
  const auto kept = out[0][0].masked_select(out[0][0] != 0);
  const auto original = layer.embedding()[4].masked_select(out[0][0] != 0);
  EXPECT(torch::allclose(kept, original * 2.0));
  layer.eval();
  EXPECT(torch::equal(layer.forward(torch::full({1, 1}, 4, torch::kLong))[0][0],
                      layer.embedding()[4]));
}

MRNN_TEST(token_dropout_removes_whole_symbols) {
  engine::InputConfig input;
  input.embeddingSize = 4;
  engine::DropoutConfig dropout;
  dropout.token = 0.5;
  engine::InputLayer layer(input, 200, dropout);
  layer.train();
  torch::manual_seed(2);
  auto tokens = torch::arange(200, torch::kLong).view({1, 200}).repeat({3, 1});
  const auto out = layer.forward(tokens);
  const auto dropped = (out[0].abs().sum(-1) == 0);
  const auto count = dropped.sum().item<int64_t>();
  EXPECT_MSG(count > 60 && count < 140, "dropped symbols: " << count << " of 200");
  for (int64_t t = 1; t < 3; ++t) EXPECT(torch::equal((out[t].abs().sum(-1) == 0), dropped));
}

MRNN_TEST(weight_drop_masks_recurrent_weights_per_window) {
  torch::nn::Module owner;
  engine::RecurrentWeight weight(owner, "W", 1, 100, 100, engine::RecurrentWeight::Layout::Stacked,
                                 false);
  weight.initUniform(1.0);
  const auto v = owner.named_parameters()["W"].view({100, 100});
  torch::manual_seed(3);
  weight.prepare(true, 0.5);
  const auto w = weight.current();
  const auto zeros = (w == 0).sum().item<int64_t>();
  EXPECT_MSG(zeros > 4500 && zeros < 5500, "dropped weights: " << zeros << " of 10000");
  EXPECT(torch::allclose(w.masked_select(w != 0), (v * 2.0).masked_select(w != 0)));
  weight.prepare(false, 0.5);
  EXPECT(torch::equal(weight.current(), v));
}

MRNN_TEST(weight_norm_reparameterises_recurrent_weights) {
  engine::LayerConfig plain;
  plain.type = CellType::Mlstm;
  plain.hiddenSize = 4;
  plain.mSize = 3;
  engine::LayerConfig normed = plain;
  normed.weightNorm = true;
  auto a = makeRandomCell(plain, 5);
  auto b = engine::makeCell(normed, kInput, kEmbedding, {});
  b->to(torch::kDouble);
  auto pa = a->named_parameters();
  auto pb = b->named_parameters();
  {
    torch::NoGradGuard noGrad;
    for (const auto& item : pa) pb[item.key()].copy_(item.value().view_as(pb[item.key()]));
    // g = ||v|| makes W = v; then scale each row's gain by a known factor.
    for (const char* name : {"W_mh", "W_m"}) {
      pb[std::string(name) + "_g"].copy_(pb[name].norm(2, {2}, true) * 1.5);
    }
  }
  // Expected: W = g * v / ||v|| = 1.5 v, so the plain cell with 1.5 v must agree.
  {
    torch::NoGradGuard noGrad;
    pa["W_mh"].mul_(1.5);
    pa["W_m"].mul_(1.5);
  }
  torch::manual_seed(1);
  const auto x = torch::randn({3, 2, kInput}, torch::kDouble);
  engine::CellState sa;
  randomState(*a, 2, 2, sa);
  engine::CellState sb = sa;
  EXPECT(torch::allclose(a->forward(x, {}, sa), b->forward(x, {}, sb), 0.0, 1e-12));
}

MRNN_TEST(state_and_hidden_dropout_act_only_in_training) {
  auto config = smallModel(engine::OutputKind::Softmax);
  config.dropout.state = 0.3;
  config.dropout.hidden = 0.3;
  config.dropout.output = 0.3;
  engine::LanguageModel model(config, 13);
  engine::LanguageModel reference(smallModel(engine::OutputKind::Softmax), 13);
  const auto tokens = torch::randint(0, 13, {5, 2}, torch::kLong);
  model.eval();
  reference.eval();
  auto s1 = model.initialState(2);
  auto s2 = reference.initialState(2);
  EXPECT(torch::allclose(model.forward(tokens, s1), reference.forward(tokens, s2), 0.0, 1e-6));
  model.train();
  auto s3 = model.initialState(2);
  auto s4 = reference.initialState(2);
  EXPECT(!torch::allclose(model.forward(tokens, s3), reference.forward(tokens, s4), 0.0, 1e-4));
}

MRNN_TEST(clamped_unit_holds_inside_the_recurrence) {
  auto config = smallModel(engine::OutputKind::Softmax);
  engine::LanguageModel model(config, 13);
  model.eval();
  model.setClamps({{0, 3, 0.75}});
  auto state = model.initialState(2);
  engine::ProbeRecorder probes;
  const auto tokens = torch::randint(0, 13, {6, 2}, torch::kLong);
  model.forward(tokens, state, &probes);
  EXPECT(torch::allclose(state.layers[0].parts[0].select(1, 3), torch::full({2}, 0.75)));
  // The next step's gates read the clamped h: the same run without the clamp differs.
  engine::LanguageModel free(config, 13);
  free.eval();
  auto freeState = free.initialState(2);
  engine::ProbeRecorder freeProbes;
  free.forward(tokens, freeState, &freeProbes);
  EXPECT(!torch::allclose(probes.stacked("layer1/m")[2], freeProbes.stacked("layer1/m")[2]));
  EXPECT(torch::allclose(probes.stacked("layer1/m")[0], freeProbes.stacked("layer1/m")[0]));
  EXPECT_THROWS_WITH(std::invalid_argument, model.setClamps({{0, 99, 1.0}}), "unit 99", "10 units");
}

MRNN_TEST(zero_output_mask_leaves_only_the_softmax_bias) {
  engine::LanguageModel model(smallModel(engine::OutputKind::Softmax), 13);
  model.eval();
  model.setOutputMask(1, torch::zeros({8}));
  auto state = model.initialState(1);
  const auto logp = model.forward(torch::tensor({{4}, {7}}, torch::kLong), state);
  const auto expected = torch::log_softmax(model.named_parameters()["output.b"], 0);
  EXPECT(torch::allclose(logp[0][0], expected, 1e-6, 1e-6));
  EXPECT(torch::allclose(logp[1][0], expected, 1e-6, 1e-6));
  model.clearOutputMasks();
  auto fresh = model.initialState(1);
  EXPECT(!torch::allclose(model.forward(torch::tensor({{4}}, torch::kLong), fresh)[0][0], expected,
                          1e-4, 1e-4));
}

// Sparse initialisation: in every recurrent block each unit's row has exactly k nonzero
// incoming weights (all of them where a row is shorter), and the rest are zero.
MRNN_TEST(sparse_initialisation_keeps_k_incoming_weights_per_unit) {
  engine::ModelConfig config;
  config.input.embeddingSize = 6;
  engine::LayerConfig mrnn;
  mrnn.type = CellType::Mrnn;
  mrnn.hiddenSize = 40;
  mrnn.mSize = 30;
  engine::LayerConfig lstm;
  lstm.type = CellType::Lstm;
  lstm.hiddenSize = 9;
  config.layers = {mrnn, lstm};
  config.init.recurrent = engine::RecurrentInit::Sparse;
  config.init.sparseConnections = 15;
  config.init.recurrentScale = 1.0;
  engine::LanguageModel model(config, 7);
  int checked = 0;
  for (const auto& item : model.named_parameters()) {
    const std::string& name = item.key();
    const bool recurrent = name == "layer1.W_mh" || name == "layer1.W_hm" || name == "layer2.W_h";
    if (!recurrent) continue;
    const auto w = item.value().detach();  // [G, rows, cols]
    const int64_t expected = std::min<int64_t>(15, w.size(2));
    const auto perRow = (w != 0).sum(2);
    EXPECT_MSG((perRow == expected).all().item<bool>(), name << ": " << perRow);
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

// init.input_scale scales every input matrix's bound, ±scale/√fan-in, and nothing else: the
// recurrent matrices are those of the usual scale, draw for draw.
MRNN_TEST(input_scale_scales_the_input_matrices_only) {
  engine::ModelConfig config;
  config.input.embeddingSize = 0;
  engine::LayerConfig rnn;
  rnn.type = CellType::Rnn;
  rnn.hiddenSize = 50;
  config.layers = {rnn};
  config.init.recurrent = engine::RecurrentInit::Orthogonal;
  config.init.recurrentScale = 1.1;
  engine::LanguageModel usual(config, 7);
  config.init.inputScale = 0.3;
  engine::LanguageModel small(config, 7);
  const auto a = usual.named_parameters(), b = small.named_parameters();
  const double bound = 1.0 / std::sqrt(7.0);
  const auto input = a["layer1.W_hx"].detach(), scaled = b["layer1.W_hx"].detach();
  EXPECT(input.abs().max().item<double>() <= bound);
  EXPECT(input.abs().max().item<double>() > 0.9 * bound);
  EXPECT(torch::allclose(scaled, 0.3 * input, 1e-6, 1e-7));
  EXPECT(torch::equal(a["layer1.W_hh"], b["layer1.W_hh"]));
}
