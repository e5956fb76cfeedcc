// On a CUDA machine, every cell computes on the GPU what it computes on the CPU. Without
// CUDA (a CPU-only LibTorch, or no GPU) the test reports itself skipped, never passed.

#include <torch/torch.h>

#include "cell_fixtures.h"
#include "engine/models/language_model.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

void requireCuda() {
  if (!torch::cuda::is_available()) MRNN_SKIP("CUDA is not available to this LibTorch build");
}

}  // namespace

MRNN_TEST(every_cell_computes_the_same_on_gpu) {
  requireCuda();
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

MRNN_TEST(language_model_runs_on_gpu) {
  requireCuda();
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
  requireCuda();
  for (const auto& cellCase : allCellCases()) {
    auto reference = makeRandomCell(cellCase.layer, 23);
    auto onGpu = makeRandomCell(cellCase.layer, 23);
    onGpu->to(torch::kCUDA, torch::kFloat32);
    torch::manual_seed(4);
    const auto x = torch::randn({9, 3, kInput}, torch::kDouble);
    const auto emb = torch::randn({9, 3, kEmbedding}, torch::kDouble);
    engine::CellState cpuState;
    randomState(*reference, 3, 7, cpuState);
    engine::CellState gpuState;
    for (const auto& part : cpuState.parts) {
      gpuState.parts.push_back(part.to(torch::kCUDA, torch::kFloat32));
    }
    const auto upstream = torch::randn({9, 3, cellCase.layer.hiddenSize}, torch::kDouble);
    const auto cpuOut = reference->forward(x, emb, cpuState);
    (cpuOut * upstream).sum().backward();
    const auto gpuOut = onGpu->forward(x.to(torch::kCUDA, torch::kFloat32),
                                       emb.to(torch::kCUDA, torch::kFloat32), gpuState);
    (gpuOut * upstream.to(torch::kCUDA, torch::kFloat32)).sum().backward();
    EXPECT_MSG(torch::allclose(cpuOut, gpuOut.cpu().to(torch::kDouble), 1e-4, 1e-5),
               cellCase.label << ": outputs differ on the GPU");
    const auto gpuParameters = onGpu->named_parameters();
    for (const auto& item : reference->named_parameters()) {
      const auto& mine = gpuParameters[item.key()];
      EXPECT_MSG(mine.grad().defined(), cellCase.label << ": no gradient for " << item.key());
      if (!mine.grad().defined()) continue;
      EXPECT_MSG(
          torch::allclose(item.value().grad(), mine.grad().cpu().to(torch::kDouble), 1e-3, 1e-4),
          cellCase.label << ": the gradient of " << item.key() << " differs on the GPU");
    }
  }
}
