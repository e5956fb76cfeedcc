// The mLSTM's fused window (one autograd node with a hand-written backward) against the
// generic per-step loop it replaces: same outputs, same final state and the same gradients
// for every parameter, the inputs and the initial state, with and without a state mask and
// weight normalisation. Both in float32, the precision the fused path runs in.

#include <torch/torch.h>

#include <string>

#include "cell_fixtures.h"
#include "engine/kernels/blas_gemm.h"
#include "engine/kernels/vector_kernels.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

struct WindowRun {
  torch::Tensor hs, h, c;
  std::vector<torch::Tensor> grads;  // parameters in order, then x, h0, c0
  std::string node;                  // the autograd node that produced hs
};

WindowRun runWindow(engine::RecurrentCell& cell, bool fused, const torch::Tensor& x,
                    const torch::Tensor& h0, const torch::Tensor& c0, const torch::Tensor& mask,
                    const torch::Tensor& weights) {
  cell.setFusedEnabled(fused);
  cell.zero_grad();
  const auto xs = x.clone().requires_grad_(true);
  engine::CellState state;
  state.parts = {h0.clone().requires_grad_(true), c0.clone().requires_grad_(true)};
  const auto start = state.parts;
  WindowRun run;
  run.hs = cell.forward(xs, {}, state, mask);
  run.h = state.parts[0];
  run.c = state.parts[1];
  run.node = run.hs.grad_fn() ? run.hs.grad_fn()->name() : "";
  // A loss through every output: each step's h and the final h and c.
  const auto loss = (run.hs * weights).sum() + (run.h * weights[0]).sum() * 0.5 +
                    (run.c * weights[1]).sum() * 0.25;
  loss.backward();
  for (const auto& parameter : cell.parameters()) run.grads.push_back(parameter.grad().clone());
  run.grads.push_back(xs.grad().clone());
  run.grads.push_back(start[0].grad().clone());
  run.grads.push_back(start[1].grad().clone());
  return run;
}

void expectSame(const WindowRun& fused, const WindowRun& generic, const std::string& label) {
  EXPECT_MSG(torch::allclose(fused.hs, generic.hs, 1e-5, 1e-6), label << ": h differs");
  EXPECT_MSG(torch::allclose(fused.h, generic.h, 1e-5, 1e-6), label << ": final h differs");
  EXPECT_MSG(torch::allclose(fused.c, generic.c, 1e-5, 1e-6), label << ": final c differs");
  EXPECT_EQ(fused.grads.size(), generic.grads.size());
  for (size_t g = 0; g < fused.grads.size() && g < generic.grads.size(); ++g) {
    const double scale = generic.grads[g].abs().max().item<double>();
    EXPECT_MSG(torch::allclose(fused.grads[g], generic.grads[g], 1e-4, 1e-5 * (1.0 + scale)),
               label << ": gradient " << g << " differs by "
                     << (fused.grads[g] - generic.grads[g]).abs().max().item<double>());
  }
}

void compareWindows(engine::LayerConfig layer, bool masked, const std::string& label) {
  auto cell = makeRandomCell(layer, 5);
  cell->to(torch::kFloat);
  const int64_t T = 7, B = 3, H = layer.hiddenSize;
  torch::manual_seed(11);
  const auto x = torch::randn({T, B, kInput});
  const auto h0 = torch::randn({B, H}) * 0.5;
  const auto c0 = torch::randn({B, H});
  const auto mask = masked ? (torch::rand({B, H}) > 0.3).to(torch::kFloat) / 0.7 : torch::Tensor();
  const auto weights = torch::randn({T, B, H});
  const auto fused = runWindow(*cell, true, x, h0, c0, mask, weights);
  const auto generic = runWindow(*cell, false, x, h0, c0, mask, weights);
  EXPECT_MSG(fused.node.find("MlstmWindowFunction") != std::string::npos,
             label << ": the fused path did not run (node " << fused.node << ")");
  EXPECT_MSG(generic.node.find("MlstmWindowFunction") == std::string::npos,
             label << ": the generic loop ran the fused node");
  expectSame(fused, generic, label);
}

engine::LayerConfig mlstm(int64_t hidden, int64_t m) {
  engine::LayerConfig layer;
  layer.type = engine::CellType::Mlstm;
  layer.hiddenSize = hidden;
  layer.mSize = m;
  return layer;
}

}  // namespace

MRNN_TEST(fused_mlstm_equals_the_generic_loop) {
  compareWindows(mlstm(4, 3), false, "H 4, M 3");
  compareWindows(mlstm(16, 24), false, "H 16, M 24");
}

MRNN_TEST(fused_mlstm_equals_the_loop_on_every_product_and_kernel_path) {
  // The window's products through CBLAS or through LibTorch, its activations through the
  // best vector kernels or the portable ones: the same answers on every path.
  for (bool raw : {true, false}) {
    for (auto isa : {engine::activeKernelIsa(), engine::KernelIsa::Scalar}) {
      engine::setRawSgemmEnabled(raw);
      engine::setKernelIsa(isa);
      compareWindows(mlstm(16, 24), true,
                     std::string(raw ? "CBLAS" : "LibTorch") + " products, " +
                         engine::kernelIsaName(isa) + " kernels");
    }
  }
  engine::setRawSgemmEnabled(true);
  engine::resetKernelIsa();
}

MRNN_TEST(fused_mlstm_equals_the_generic_loop_with_a_state_mask) {
  compareWindows(mlstm(8, 5), true, "H 8, M 5, state mask");
}

MRNN_TEST(fused_mlstm_equals_the_generic_loop_with_weight_norm) {
  auto layer = mlstm(6, 6);
  layer.weightNorm = true;
  compareWindows(layer, true, "weight norm");
}

MRNN_TEST(fused_mlstm_leaves_other_cases_to_the_loop) {
  // Double precision and the output gate inside run the generic loop.
  auto inside = mlstm(4, 3);
  inside.outputGate = engine::OutputGate::Inside;
  for (const auto& [layer, precision] :
       {std::pair{mlstm(4, 3), torch::kDouble}, std::pair{inside, torch::kFloat}}) {
    auto cell = makeRandomCell(layer, 3);
    cell->to(precision);
    engine::CellState state;
    state.parts = {torch::zeros({2, 4}, precision), torch::zeros({2, 4}, precision)};
    const auto hs = cell->forward(torch::randn({3, 2, kInput}, precision), {}, state);
    EXPECT(hs.grad_fn() != nullptr);
    EXPECT(std::string(hs.grad_fn()->name()).find("MlstmWindowFunction") == std::string::npos);
  }
}
