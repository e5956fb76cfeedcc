// On a CUDA machine, every cell computes on the GPU what it computes on the CPU. Without
// CUDA (a CPU-only LibTorch, or no GPU) the test reports itself skipped, never passed.

#include <torch/torch.h>

#include <algorithm>

#include "cell_fixtures.h"
#include "engine/config/cell_type.h"
#include "engine/devices/autocast_scope.h"
#include "engine/models/cuda_fused_window.h"
#include "engine/models/language_model.h"
#include "fused_window_check.h"
#include "require_gpu.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

// One cell in float64 on the CPU and its twin in float32 on the GPU (under bf16 autocast when
// asked): the same weights, inputs, state and upstream gradient; both outputs, both
// backward passes run.
struct CellOnBoth {
  std::shared_ptr<engine::RecurrentCell> reference, onGpu;
  torch::Tensor cpuOut, gpuOut;
};

CellOnBoth runOnBoth(const CellCase& cellCase, uint64_t weightSeed, uint64_t inputSeed,
                     bool bf16Autocast) {
  CellOnBoth both{makeRandomCell(cellCase.layer, weightSeed),
                  makeRandomCell(cellCase.layer, weightSeed),
                  {},
                  {}};
  both.onGpu->to(torch::kCUDA, torch::kFloat32);
  torch::manual_seed(inputSeed);
  const auto x = torch::randn({9, 3, kInput}, torch::kDouble);
  const auto emb = torch::randn({9, 3, kEmbedding}, torch::kDouble);
  engine::CellState cpuState;
  randomState(*both.reference, 3, 7, cpuState);
  engine::CellState gpuState;
  for (const auto& part : cpuState.parts) {
    gpuState.parts.push_back(part.to(torch::kCUDA, torch::kFloat32));
  }
  const auto upstream = torch::randn({9, 3, cellCase.layer.hiddenSize}, torch::kDouble);
  both.cpuOut = both.reference->forward(x, emb, cpuState);
  (both.cpuOut * upstream).sum().backward();
  {
    engine::AutocastScope autocast(bf16Autocast);
    both.gpuOut = both.onGpu->forward(x.to(torch::kCUDA, torch::kFloat32),
                                      emb.to(torch::kCUDA, torch::kFloat32), gpuState);
  }
  (both.gpuOut.to(torch::kFloat32) * upstream.to(torch::kCUDA, torch::kFloat32)).sum().backward();
  return both;
}

// Each parameter's gradient on the GPU beside the reference's: `check(name, cpu, gpu)`.
template <class Check>
void eachGradient(const CellCase& cellCase, const CellOnBoth& both, Check check) {
  const auto gpuParameters = both.onGpu->named_parameters();
  for (const auto& item : both.reference->named_parameters()) {
    const auto& mine = gpuParameters[item.key()];
    EXPECT_MSG(mine.grad().defined(), cellCase.label << ": no gradient for " << item.key());
    if (mine.grad().defined()) check(item.key(), item.value().grad(), mine.grad());
  }
}

}  // namespace

MRNN_TEST(every_cell_computes_the_same_on_gpu) {
  requireGpu();
  for (const auto& cellCase : allCellCases()) {
    auto cell = makeRandomCell(cellCase.layer, 17);
    torch::manual_seed(2);
    const auto x = torch::randn({6, 3, kInput}, torch::kDouble);
    const auto emb = torch::randn({6, 3, kEmbedding}, torch::kDouble);
    engine::CellState cpuState;
    randomState(*cell, 3, 5, cpuState);
    engine::CellState gpuState;
    for (const auto& part : cpuState.parts) gpuState.parts.push_back(part.to(torch::kCUDA));
    const auto onCpu = cell->forward(x, emb, cpuState);
    cell->to(torch::kCUDA);
    const auto onGpu = cell->forward(x.to(torch::kCUDA), emb.to(torch::kCUDA), gpuState).cpu();
    EXPECT_MSG(torch::allclose(onCpu, onGpu, 0.0, 1e-9), cellCase.label << " differs on the GPU");
  }
}

// Every cell's fused CUDA window (engine/cuda through the glue) against the generic per-step
// loop on the same GPU, on every cell fixture, with and without a state mask and weight
// normalisation: the same outputs, final states and gradients, and the CUDA window's own
// autograd node in the graph (so a cell that fell back to the loop on a GPU fails here).
MRNN_TEST(every_fused_cuda_window_equals_the_generic_cuda_loop) {
  const torch::Device gpu = gpuWithKernels();
  for (const auto type : engine::allCellTypes()) compareFusedWithLoopForType(type, gpu);
}

MRNN_TEST(language_model_runs_on_gpu) {
  requireGpu();
  engine::ModelConfig config;
  config.input.embeddingSize = 16;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Mlstm;
  layer.hiddenSize = 32;
  config.layers = {layer};
  config.output.kind = engine::OutputKind::MixtureOfSoftmaxes;
  config.output.mixtures = 3;
  engine::LanguageModel model(config, 20);
  model.to(torch::kCUDA);
  auto state = model.initialState(4);
  const auto tokens = torch::randint(
      0, 20, {8, 4}, torch::TensorOptions().dtype(torch::kLong).device(torch::kCUDA));
  const auto logp = model.forward(tokens, state);
  EXPECT(logp.is_cuda());
  const auto total = logp.exp().sum(-1).cpu();
  EXPECT(torch::allclose(total, torch::ones_like(total), 1e-4, 1e-4));
  logp.sum().backward();
  for (const auto& p : model.parameters()) EXPECT(p.grad().defined());
}

// Training precision on the GPU: each cell in float32 there (the fused CUDA windows where a
// cell has one, the generic ops elsewhere) against the same cell in float64 on the CPU, for
// the outputs and every parameter's gradient.
MRNN_TEST(every_cell_in_float32_on_gpu_matches_the_cpu_double_reference) {
  requireGpu();
  for (const auto& cellCase : allCellCases()) {
    const auto both = runOnBoth(cellCase, 23, 4, false);
    EXPECT_MSG(torch::allclose(both.cpuOut, both.gpuOut.cpu().to(torch::kDouble), 1e-4, 1e-5),
               cellCase.label << ": outputs differ on the GPU");
    eachGradient(cellCase, both,
                 [&](const std::string& name, const torch::Tensor& cpu, const torch::Tensor& gpu) {
                   EXPECT_MSG(
                       torch::allclose(cpu, gpu.cpu().to(torch::kDouble), 1e-3, 1e-4),
                       cellCase.label << ": the gradient of " << name << " differs on the GPU");
                 });
  }
}

// bf16 autocast on the GPU, as `training.bf16` runs it: the fused windows multiply at
// bfloat16 with float32 states, the other cells run autocast's generic ops. Each stays within
// bfloat16's reach (8 significant bits, over 9 steps) of the float64 CPU reference, outputs
// and every parameter's gradient, relative to each tensor's largest value.
MRNN_TEST(every_cell_under_bf16_autocast_on_gpu_stays_near_the_cpu_double_reference) {
  requireGpu();
  const auto relative = [](const torch::Tensor& expected, const torch::Tensor& actual) {
    const auto e = expected.to(torch::kDouble);
    const auto a = actual.cpu().to(torch::kDouble);
    return (a - e).abs().max().item<double>() / std::max(1e-3, e.abs().max().item<double>());
  };
  for (const auto& cellCase : allCellCases()) {
    const auto both = runOnBoth(cellCase, 29, 6, true);
    const double out = relative(both.cpuOut, both.gpuOut);
    EXPECT_MSG(out < 5e-2, cellCase.label << ": outputs differ under bf16 autocast by " << out);
    eachGradient(cellCase, both,
                 [&](const std::string& name, const torch::Tensor& cpu, const torch::Tensor& gpu) {
                   const double grad = relative(cpu, gpu);
                   EXPECT_MSG(grad < 1e-1, cellCase.label << ": the gradient of " << name
                                                          << " differs under bf16 autocast by "
                                                          << grad);
                 });
  }
}
