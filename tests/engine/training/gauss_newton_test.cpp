// The curvature products Hessian-free multiplies by, against an explicit computation: on tiny
// models of every cell in float64, (G + μS) v equals Σ Jᵀ H J v built from each output's
// Jacobian row (autograd, one output at a time), with H = diag(p) − ppᵀ at the logits and
// structural damping's D'' at every layer's hidden output; the per-sequence squared gradients
// likewise. Dropout is on (its masks recorded once and replayed), so a product that drew new
// masks would not match.

#include <torch/torch.h>

#include <string>
#include <vector>

#include "cell_fixtures.h"
#include "engine/models/language_model.h"
#include "engine/models/window_masks.h"
#include "engine/training/curvature_windows.h"
#include "test_harness.h"

namespace {

using namespace mrnn;
using torch::kDouble;

constexpr int64_t kVocab = 5;
constexpr int64_t kSteps = 3;
constexpr int64_t kStreams = 2;

struct Tiny {
  std::unique_ptr<engine::LanguageModel> model;
  torch::Tensor inputs;
  torch::Tensor targets;
  torch::Tensor mask;
  engine::ModelState start;
  engine::WindowMasks masks;
};

Tiny tiny(std::vector<engine::LayerConfig> layers, engine::OutputKind output, bool dropout,
          uint64_t seed) {
  engine::ModelConfig config;
  config.input.embeddingSize = 3;
  config.layers = std::move(layers);
  for (auto& layer : config.layers) {
    // The Mogrifier's rank must stay below the embedding's width here.
    if (layer.type == engine::CellType::Mogrifier && layer.rank > 2) layer.rank = 2;
  }
  config.output.kind = output;
  config.output.mixtures = 2;
  config.output.latentSize = 3;
  if (dropout) {
    config.dropout.embedding = 0.3;
    config.dropout.state = 0.3;
    config.dropout.hidden = 0.3;
    config.dropout.token = 0.2;
    for (auto& layer : config.layers) layer.weightDrop = 0.3;
  }
  Tiny t;
  t.model = std::make_unique<engine::LanguageModel>(config, kVocab);
  t.model->to(kDouble);
  t.model->train();
  torch::manual_seed(seed);
  {
    torch::NoGradGuard noGrad;
    for (auto& p : t.model->parameters()) p.normal_(0.0, 0.5);
  }
  t.inputs = torch::randint(0, kVocab, {kSteps, kStreams}, torch::kLong);
  t.targets = torch::randint(0, kVocab, {kSteps, kStreams}, torch::kLong);
  t.mask = torch::tensor({1.0, 1.0, 0.0, 1.0, 1.0, 1.0}, kDouble).view({kSteps, kStreams});
  t.start = t.model->initialState(kStreams);
  {
    torch::NoGradGuard noGrad;
    for (auto& layer : t.start.layers) {
      for (auto& part : layer.parts) part.uniform_(-0.5, 0.5);
    }
  }
  // The masks of the window, drawn by a first pass as the objective's first pass draws them.
  engine::ModelState state = t.start;
  torch::NoGradGuard noGrad;
  t.model->forward(t.inputs, state, nullptr, {&t.masks, nullptr, {}});
  return t;
}

int64_t parameterCount(const std::vector<torch::Tensor>& parameters) {
  int64_t n = 0;
  for (const auto& p : parameters) n += p.numel();
  return n;
}

// d out / dθ as one flat row per element of `out` (it must be in the graph of `parameters`).
torch::Tensor jacobianRows(const torch::Tensor& out, const std::vector<torch::Tensor>& parameters) {
  const auto flat = out.reshape({-1});
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < flat.numel(); ++i) {
    const auto grads = torch::autograd::grad({flat[i]}, parameters, {}, true, false, true);
    std::vector<torch::Tensor> pieces;
    for (size_t k = 0; k < parameters.size(); ++k) {
      pieces.push_back(grads[k].defined() ? grads[k].reshape({-1})
                                          : torch::zeros({parameters[k].numel()}, kDouble));
    }
    rows.push_back(torch::cat(pieces));
  }
  return torch::stack(rows);  // [out.numel(), P]
}

struct Explicit {
  torch::Tensor gauss;       // G, [P, P]
  torch::Tensor structural;  // S, [P, P]
  torch::Tensor squares;     // Σ_seq g_seq² / N
};

// G, S and the squared gradients written out from Jacobian rows. `logits`: the softmax's
// logits are rebuilt from the top layer's output and the head's own W and b (true for a
// softmax head), else the Fisher on the log-probabilities (a Mixture of Softmaxes' output).
Explicit explicitMatrices(Tiny& t, bool logits) {
  auto& model = *t.model;
  const auto parameters = model.parameters();
  const int64_t count = parameterCount(parameters);
  const double n = t.mask.sum().item<double>();
  engine::ModelState state = t.start;
  t.masks.rewind();
  std::vector<torch::Tensor> hidden;
  const auto logp = model.forward(t.inputs, state, nullptr, {&t.masks, &hidden, {}});
  Explicit e;
  e.gauss = torch::zeros({count, count}, kDouble);
  e.structural = torch::zeros({count, count}, kDouble);
  const auto p = logp.detach().exp();
  torch::Tensor outputs = logp;
  if (logits) {
    torch::Tensor w;
    torch::Tensor b;
    for (const auto& item : model.named_parameters()) {
      if (item.key() == "output.W") w = item.value();
      if (item.key() == "output.b") b = item.value();
    }
    outputs = torch::linear(hidden.back(), w, b);
    EXPECT(torch::allclose(torch::log_softmax(outputs, -1), logp, 1e-12, 1e-12));
  }
  const auto j = jacobianRows(outputs, parameters).view({kSteps, kStreams, kVocab, count});
  for (int64_t s = 0; s < kSteps; ++s) {
    for (int64_t b = 0; b < kStreams; ++b) {
      const double weight = t.mask[s][b].item<double>();
      if (weight == 0.0) continue;
      const auto pt = p[s][b];
      const auto h = logits ? torch::diag(pt) - torch::outer(pt, pt) : torch::diag(pt);
      const auto jt = j[s][b];  // [V, P]
      e.gauss += weight * jt.t().matmul(h).matmul(jt);
    }
  }
  e.gauss /= n;
  for (size_t l = 0; l < hidden.size(); ++l) {
    const auto& h = hidden[l];
    const auto rows = jacobianRows(h, parameters);  // [T·B·H, P]
    auto d = torch::ones({h.numel()}, kDouble);
    if (model.layer(l).tanhOutput()) d = 1.0 / (1.0 - h.detach().reshape({-1}).pow(2));
    e.structural += rows.t().matmul(d.unsqueeze(1) * rows);
  }
  e.structural /= n;
  // Each sequence's gradient of its summed, masked NLL.
  const auto nll = -logp.gather(2, t.targets.unsqueeze(2)).squeeze(2) * t.mask;
  e.squares = torch::zeros({count}, kDouble);
  for (int64_t b = 0; b < kStreams; ++b) {
    const auto grads =
        torch::autograd::grad({nll.select(1, b).sum()}, parameters, {}, true, false, true);
    std::vector<torch::Tensor> pieces;
    for (size_t k = 0; k < parameters.size(); ++k) {
      pieces.push_back(grads[k].defined() ? grads[k].reshape({-1})
                                          : torch::zeros({parameters[k].numel()}, kDouble));
    }
    e.squares += torch::cat(pieces).pow(2);
  }
  e.squares /= n;
  return e;
}

engine::CurvatureWindows curvatureOf(Tiny& t) {
  engine::CurvatureWindow window{t.inputs, t.targets, t.mask, {}, {}, t.start, t.masks};
  std::vector<engine::CurvatureWindow> windows;
  windows.push_back(std::move(window));
  return engine::CurvatureWindows(*t.model, std::move(windows), t.mask.sum().item<double>());
}

void checkProducts(const std::string& label, Tiny& t, bool logits) {
  const Explicit e = explicitMatrices(t, logits);
  auto curvature = curvatureOf(t);
  const auto parameters = t.model->parameters();
  torch::manual_seed(99);
  const auto v = torch::randn({parameterCount(parameters)}, kDouble);
  const double mu = 0.7;
  const auto plain = curvature.product(parameters, v, 0.0);
  const auto damped = curvature.product(parameters, v, mu);
  const auto expectPlain = e.gauss.matmul(v);
  const auto expectDamped = expectPlain + mu * e.structural.matmul(v);
  const double scale = 1.0 + expectDamped.abs().max().item<double>();
  const double plainError = (plain - expectPlain).abs().max().item<double>() / scale;
  const double dampedError = (damped - expectDamped).abs().max().item<double>() / scale;
  EXPECT_MSG(plainError < 1e-10, label << ": G v off by " << plainError);
  EXPECT_MSG(dampedError < 1e-10, label << ": (G + μS) v off by " << dampedError);
  // The damping adds something: the test would not see a product that ignored it.
  EXPECT_MSG((expectDamped - expectPlain).abs().max().item<double>() > 1e-6, label);
  const auto squares = curvature.squaredGradients(parameters);
  const double squaresError = (squares - e.squares).abs().max().item<double>() /
                              (1.0 + e.squares.abs().max().item<double>());
  EXPECT_MSG(squaresError < 1e-10, label << ": squared gradients off by " << squaresError);
  // The same product again: the kept graph and the replayed masks give it exactly.
  EXPECT_MSG(torch::equal(curvature.product(parameters, v, mu), damped), label);
}

MRNN_TEST(gauss_newton_products_equal_explicit_jacobians_for_every_cell) {
  uint64_t seed = 1;
  for (const auto& c : test::allCellCases()) {
    for (bool dropout : {false, true}) {
      Tiny t = tiny({c.layer}, engine::OutputKind::Softmax, dropout, seed++);
      checkProducts(c.label + (dropout ? " with dropout" : ""), t, true);
    }
  }
}

MRNN_TEST(gauss_newton_products_over_two_layers_and_a_mixture_of_softmaxes) {
  engine::LayerConfig below;
  below.type = engine::CellType::Lstm;
  below.hiddenSize = 4;
  engine::LayerConfig above;
  above.type = engine::CellType::Mrnn;
  above.hiddenSize = 3;
  above.mSize = 2;
  Tiny stacked = tiny({below, above}, engine::OutputKind::Softmax, true, 41);
  checkProducts("lstm + mrnn", stacked, true);
  // A Mixture of Softmaxes has no single softmax: its curvature is the Fisher on the log
  // probabilities, J_lᵀ diag(p) J_l (for a softmax the two are equal).
  Tiny mixture = tiny({above}, engine::OutputKind::MixtureOfSoftmaxes, true, 43);
  checkProducts("mrnn, mixture of softmaxes", mixture, false);
}

MRNN_TEST(the_gauss_newton_matrix_is_symmetric_and_positive_semidefinite) {
  Tiny t = tiny({test::allCellCases().front().layer}, engine::OutputKind::Softmax, true, 51);
  auto curvature = curvatureOf(t);
  const auto parameters = t.model->parameters();
  const int64_t n = parameterCount(parameters);
  torch::manual_seed(5);
  for (int trial = 0; trial < 4; ++trial) {
    const auto u = torch::randn({n}, kDouble);
    const auto v = torch::randn({n}, kDouble);
    const double uGv = torch::dot(u, curvature.product(parameters, v, 0.3)).item<double>();
    const double vGu = torch::dot(v, curvature.product(parameters, u, 0.3)).item<double>();
    EXPECT_NEAR(uGv, vGu, 1e-10 * (1.0 + std::fabs(uGv)));
    EXPECT(torch::dot(v, curvature.product(parameters, v, 0.3)).item<double>() >= 0.0);
  }
}

// In float32 the kept graph goes through the fused windows (their backward, run again for every
// product): the products equal those of the per-step loop, and a second product the first.
MRNN_TEST(products_through_the_fused_windows_equal_the_per_step_loop) {
  uint64_t seed = 61;
  for (const auto& c : test::allCellCases()) {
    Tiny t = tiny({c.layer}, engine::OutputKind::Softmax, true, seed++);
    t.model->to(torch::kFloat);
    t.mask = t.mask.to(torch::kFloat);
    for (auto& layer : t.start.layers) {
      for (auto& part : layer.parts) part = part.to(torch::kFloat);
    }
    engine::WindowMasks masks;  // float masks: drawn again by a float first pass
    {
      engine::ModelState state = t.start;
      torch::NoGradGuard noGrad;
      t.model->forward(t.inputs, state, nullptr, {&masks, nullptr, {}});
    }
    t.masks = masks;
    const auto parameters = t.model->parameters();
    torch::manual_seed(7);
    const auto v = torch::randn({parameterCount(parameters)});
    auto fused = curvatureOf(t);
    const auto first = fused.product(parameters, v, 0.5);
    const auto second = fused.product(parameters, v, 0.5);
    t.model->setFusedKernels(false);
    auto loop = curvatureOf(t);
    const auto reference = loop.product(parameters, v, 0.5);
    t.model->setFusedKernels(true);
    const double scale = 1.0 + reference.abs().max().item<double>();
    EXPECT_MSG((first - reference).abs().max().item<double>() / scale < 1e-5,
               c.label << ": fused " << (first - reference).abs().max().item<double>());
    EXPECT_MSG(torch::equal(first, second), c.label << ": the second product differs");
  }
}

}  // namespace
// An update rule tries steps by writing the weights and putting them back (backtracking, the
// line search, ρ); a product after that is made at the weights as they are, not from a graph
// the writes invalidated.
MRNN_TEST(a_product_after_the_weights_were_written_back_is_made_afresh) {
  Tiny t = tiny({test::allCellCases().front().layer}, engine::OutputKind::Softmax, true, 53);
  auto curvature = curvatureOf(t);
  const auto parameters = t.model->parameters();
  torch::manual_seed(2);
  const auto v = torch::randn({parameterCount(parameters)}, kDouble);
  const auto before = curvature.product(parameters, v, 0.3);
  {
    torch::NoGradGuard noGrad;
    for (auto p : parameters) p.add_(1.0);
    EXPECT(!torch::allclose(curvature.product(parameters, v, 0.3), before));
    for (auto p : parameters) p.sub_(1.0);
  }
  EXPECT(torch::allclose(curvature.product(parameters, v, 0.3), before, 1e-12, 1e-12));
}
