#include "fused_window_check.h"

#include <torch/torch.h>

#include <set>
#include <vector>

#include "cell_fixtures.h"
#include "test_harness.h"

namespace mrnn::test {

namespace {

struct WindowRun {
  torch::Tensor hs;
  std::vector<torch::Tensor> finalState;
  std::vector<torch::Tensor> grads;  // parameters in order, then x, embedding, initial state
  std::string nodes;                 // every autograd node name of hs's graph, joined
};

// The names of the nodes reachable from `root`, so that a fused node under a concatenation
// (the Major-Minor LSTM's two windows) is found too.
std::string graphNodeNames(const torch::Tensor& root) {
  std::string names;
  std::vector<torch::autograd::Node*> pending;
  std::set<torch::autograd::Node*> seen;
  if (root.grad_fn()) pending.push_back(root.grad_fn().get());
  while (!pending.empty()) {
    auto* node = pending.back();
    pending.pop_back();
    if (!seen.insert(node).second) continue;
    names += node->name() + ";";
    for (const auto& edge : node->next_edges()) {
      if (edge.function) pending.push_back(edge.function.get());
    }
  }
  return names;
}

bool hasNode(const std::string& nodes, const std::string& name) {
  // CppNode<mrnn::engine::(anonymous namespace)::MlstmWindowFunction>: match the whole name,
  // so that MlstmWindowFunction is not found inside TmlstmWindowFunction.
  return nodes.find("::" + name + ">") != std::string::npos;
}

// Runs on the cell's device (the inputs are moved there); the results come back to the CPU.
WindowRun runWindow(engine::RecurrentCell& cell, bool fused, const torch::Tensor& x,
                    const torch::Tensor& embedding, const std::vector<torch::Tensor>& start,
                    const torch::Tensor& mask, const torch::Tensor& weights,
                    const torch::Device& device) {
  cell.setFusedEnabled(fused);
  cell.zero_grad();
  // Fresh leaves every run: on the CPU to() hands back the caller's own tensor, whose
  // gradient would then add up over the runs.
  const auto leafOn = [&](const torch::Tensor& t) {
    return t.detach().clone().to(device).requires_grad_(true);
  };
  const auto xs = leafOn(x);
  const auto es = leafOn(embedding);
  engine::CellState state;
  for (const auto& part : start) state.parts.push_back(leafOn(part));
  const auto initial = state.parts;
  const auto deviceWeights = weights.to(device);
  WindowRun run;
  const auto hs = cell.forward(xs, es, state, mask.defined() ? mask.to(device) : mask);
  run.nodes = graphNodeNames(hs);
  // A loss through every output: each step's h and every part of the final state.
  auto loss = (hs * deviceWeights).sum();
  for (size_t p = 0; p < state.parts.size(); ++p) {
    loss = loss + (state.parts[p] * deviceWeights[static_cast<int64_t>(p)]).sum() * (0.5 / (p + 1));
  }
  loss.backward();
  run.hs = hs.detach().cpu();
  for (const auto& part : state.parts) run.finalState.push_back(part.detach().cpu());
  const auto gradOf = [](const torch::Tensor& t) {
    return t.grad().defined() ? t.grad().cpu().clone() : torch::zeros_like(t).cpu();
  };
  for (const auto& parameter : cell.parameters()) run.grads.push_back(gradOf(parameter));
  run.grads.push_back(gradOf(xs));
  run.grads.push_back(gradOf(es));
  for (const auto& part : initial) run.grads.push_back(gradOf(part));
  return run;
}

// Whether `fused` agrees with the float32 loop: within a tight tolerance, or, where the
// recurrence amplifies rounding (an mGRU at H 16 doubles a difference every step), no further
// from the float64 loop than twice the float32 loop's own distance from it.
bool agrees(const torch::Tensor& fused, const torch::Tensor& loop, const torch::Tensor& exact,
            double rtol, double atol) {
  if (torch::allclose(fused, loop, rtol, atol)) return true;
  const double fusedError = (fused.to(torch::kDouble) - exact).abs().max().item<double>();
  const double loopError = (loop.to(torch::kDouble) - exact).abs().max().item<double>();
  return fusedError <= 2.0 * loopError + atol;
}

double largestDifference(const torch::Tensor& a, const torch::Tensor& b) {
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

void expectSame(const WindowRun& fused, const WindowRun& generic, const WindowRun& exact,
                const std::string& label) {
  EXPECT_MSG(agrees(fused.hs, generic.hs, exact.hs, 1e-5, 1e-6),
             label << ": h differs by " << largestDifference(fused.hs, generic.hs));
  EXPECT_EQ(fused.finalState.size(), generic.finalState.size());
  for (size_t p = 0; p < fused.finalState.size() && p < generic.finalState.size(); ++p) {
    EXPECT_MSG(agrees(fused.finalState[p], generic.finalState[p], exact.finalState[p], 1e-5, 1e-6),
               label << ": final state part " << p << " differs by "
                     << largestDifference(fused.finalState[p], generic.finalState[p]));
  }
  EXPECT_EQ(fused.grads.size(), generic.grads.size());
  for (size_t g = 0; g < fused.grads.size() && g < generic.grads.size(); ++g) {
    const double scale = generic.grads[g].abs().max().item<double>();
    EXPECT_MSG(agrees(fused.grads[g], generic.grads[g], exact.grads[g], 1e-4, 1e-5 * (1.0 + scale)),
               label << ": gradient " << g << " differs by "
                     << largestDifference(fused.grads[g], generic.grads[g]));
  }
}

}  // namespace

std::string expectedFusedNode(const engine::LayerConfig& layer) {
  using engine::CellType;
  const bool outside = layer.outputGate == engine::OutputGate::Outside;
  switch (layer.type) {
    case CellType::Rnn:
      return "RnnWindowFunction";
    case CellType::Mrnn:
      return "MrnnWindowFunction";
    case CellType::Lstm:
    case CellType::Mmlstm:
      return outside ? "LstmWindowFunction" : "";
    case CellType::Mlstm:
      return outside ? "MlstmWindowFunction" : "";
    case CellType::Tmlstm:
      return outside ? "TmlstmWindowFunction" : "";
    case CellType::Gru:
      return layer.resetAfter ? "" : "GruWindowFunction";  // PyTorch's form: the loop
    case CellType::Mgru:
      return "MgruWindowFunction";
    case CellType::Tmgru:
      return "TmgruWindowFunction";
    case CellType::Mogrifier:
      return outside ? "MogrifierWindowFunction" : "";
    case CellType::Milstm:
      return "";
  }
  return "";
}

void compareFusedWithLoop(const engine::LayerConfig& layer, bool masked, const std::string& label,
                          const torch::Device& device) {
  auto cell = makeRandomCell(layer, 5);
  cell->to(device, torch::kFloat);
  const int64_t T = 7, B = 3, H = layer.hiddenSize;
  torch::manual_seed(11);
  const auto x = torch::randn({T, B, kInput});
  const auto embedding = torch::randn({T, B, kEmbedding});
  std::vector<torch::Tensor> start;
  for (int p = 0; p < cell->statePartCount(); ++p) start.push_back(torch::randn({B, H}) * 0.5);
  const auto mask = masked ? (torch::rand({B, H}) > 0.3).to(torch::kFloat) / 0.7 : torch::Tensor();
  const auto weights = torch::randn({T, B, H});
  const auto fused = runWindow(*cell, true, x, embedding, start, mask, weights, device);
  const auto generic = runWindow(*cell, false, x, embedding, start, mask, weights, device);
  // The same loop in float64 on the same (float32-rounded) parameters and inputs: the exact
  // answer both are judged against when they differ by more than rounding at first sight.
  auto exactCell = makeRandomCell(layer, 5);
  exactCell->to(torch::kFloat);
  exactCell->to(torch::kDouble);
  std::vector<torch::Tensor> exactStart;
  for (const auto& part : start) exactStart.push_back(part.to(torch::kDouble));
  const auto exact =
      runWindow(*exactCell, false, x.to(torch::kDouble), embedding.to(torch::kDouble), exactStart,
                masked ? mask.to(torch::kDouble) : mask, weights.to(torch::kDouble), torch::kCPU);
  // On a GPU the cells run the CUDA windows' nodes (CudaMlstmWindowFunction, ...).
  const std::string cpuNode = expectedFusedNode(layer);
  const std::string node = cpuNode.empty() || device.is_cpu() ? cpuNode : "Cuda" + cpuNode;
  if (node.empty()) {
    EXPECT_MSG(fused.nodes.find("WindowFunction") == std::string::npos,
               label << ": a fused node ran where the loop should");
  } else {
    EXPECT_MSG(hasNode(fused.nodes, node), label << ": the fused path did not run " << node
                                                 << " (the output's node is "
                                                 << fused.hs.grad_fn()->name() << ")");
  }
  EXPECT_MSG(generic.nodes.find("WindowFunction") == std::string::npos,
             label << ": the generic loop ran a fused node");
  expectSame(fused, generic, exact, label);
}

void compareFusedWithLoopForType(engine::CellType type, const torch::Device& device) {
  int cases = 0;
  for (const auto& [label, layer] : allCellCases()) {
    if (layer.type != type) continue;
    ++cases;
    compareFusedWithLoop(layer, false, label, device);
    compareFusedWithLoop(layer, true, label + ", state mask", device);
    auto normalised = layer;
    normalised.weightNorm = true;
    compareFusedWithLoop(normalised, true, label + ", weight norm, state mask", device);
  }
  EXPECT_MSG(cases > 0, "no cell case of this type");
}

}  // namespace mrnn::test
