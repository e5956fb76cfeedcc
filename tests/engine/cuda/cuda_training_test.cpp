// Training on a GPU: the fused CUDA mLSTM window against the generic loop on the same GPU,
// training steps on the GPU against the same steps on the CPU, exact resumption, a NaN, and
// running out of GPU memory. Without CUDA (a CPU-only LibTorch, or no GPU) each test reports
// itself skipped, never passed.

#include <torch/torch.h>

#include <filesystem>

#include "engine/devices/autocast_scope.h"
#include "engine/devices/compute_device.h"
#include "engine/models/cuda_fused_window.h"
#include "engine/models/fused_mlstm_window.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/training/checkpoint.h"
#include "engine/training/trainer.h"
#include "engine/windows/lstm_window_layout.h"
#include "engine/windows/mlstm_window_layout.h"
#include "require_gpu.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

// The largest difference between two tensors, relative to the larger's scale.
double relativeDifference(const torch::Tensor& a, const torch::Tensor& b) {
  const auto x = a.to(torch::kDouble).cpu();
  const auto y = b.to(torch::kDouble).cpu();
  const double scale =
      std::max(1.0, std::max(x.abs().max().item<double>(), y.abs().max().item<double>()));
  return (x - y).abs().max().item<double>() / scale;
}

struct WindowRun {
  torch::Tensor hs, h, c;
  std::vector<torch::Tensor> grads;  // xp, h0, c0, wMh, wM
};

// One mLSTM window and its gradients for a fixed upstream gradient: through the fused CUDA
// kernels (float32 on the GPU) or through the generic ops (the same window in float64 on the
// GPU: the fused path only takes float32, so this is the loop, and a tighter reference).
// With bf16Autocast the fused window runs under bf16 autocast, given xp in bfloat16 as
// autocast's input projection hands it over.
WindowRun mlstmWindow(bool fused, const torch::Device& device, bool withMask,
                      bool bf16Autocast = false) {
  torch::manual_seed(11);
  const int64_t T = 7, B = 5, H = 24, M = 20;
  const auto dtype = fused ? torch::kFloat32 : torch::kFloat64;
  const auto make = [&](std::vector<int64_t> shape, double scale) {
    return (torch::randn(shape, torch::kFloat64) * scale).to(device, dtype).requires_grad_(true);
  };
  auto xp = bf16Autocast ? (torch::randn({T, B, M + 4 * H}, torch::kFloat64) * 0.5)
                               .to(device, torch::kBFloat16)
                               .requires_grad_(true)
                         : make({T, B, M + 4 * H}, 0.5);
  auto h0 = make({B, H}, 0.5);
  auto c0 = make({B, H}, 0.5);
  auto wMh = make({M, H}, 0.3);
  auto wM = make({4 * H, M}, 0.3);
  auto mask = withMask ? (torch::rand({B, H}, torch::kFloat64) > 0.3)
                             .to(torch::kFloat64)
                             .mul(1.0 / 0.7)
                             .to(device, dtype)
                       : torch::Tensor();
  const auto upstream = torch::randn({T, B, H}, torch::kFloat64).to(device, dtype);
  const auto upH = torch::randn({B, H}, torch::kFloat64).to(device, dtype);
  const auto upC = torch::randn({B, H}, torch::kFloat64).to(device, dtype);
  WindowRun run;
  if (fused) {
    // bfloat16 inputs take the fused window under bf16 autocast only.
    EXPECT(engine::cudaFusedWindowApplies({xp, h0, c0, wMh, wM}) != bf16Autocast);
    engine::AutocastScope autocast(bf16Autocast);
    EXPECT(engine::cudaFusedWindowApplies({xp, h0, c0, wMh, wM}));
    const auto out = engine::cudaFusedWindow<engine::MlstmWindow>({xp, h0, c0, wMh, wM, mask});
    run.hs = out.hs;
    run.h = out.h;
    run.c = out.c;
  } else {
    EXPECT(!engine::cudaFusedWindowApplies({xp, h0, c0, wMh, wM}));
    auto h = h0;
    auto c = c0;
    std::vector<torch::Tensor> hs;
    for (int64_t t = 0; t < T; ++t) {
      const auto hin = mask.defined() ? h * mask : h;
      const auto x = xp.select(0, t);
      const auto m = x.narrow(1, 0, M) * torch::mm(hin, wMh.t());
      const auto pre = x.narrow(1, M, 4 * H) + torch::mm(m, wM.t());
      const auto gates = pre.chunk(4, 1);
      const auto i = torch::sigmoid(gates[0]);
      const auto f = torch::sigmoid(gates[1]);
      const auto o = torch::sigmoid(gates[2]);
      const auto j = torch::tanh(gates[3]);
      c = f * c + i * j;
      h = o * torch::tanh(c);
      hs.push_back(h);
    }
    run.hs = torch::stack(hs);
    run.h = h;
    run.c = c;
  }
  const auto loss = (run.hs * upstream).sum() + (run.h * upH).sum() + (run.c * upC).sum();
  loss.backward();
  run.grads = {xp.grad(), h0.grad(), c0.grad(), wMh.grad(), wM.grad()};
  return run;
}

// The same for the LSTM window (W_h alone; also the Major-Minor LSTM's halves).
WindowRun lstmWindow(bool fused, const torch::Device& device) {
  torch::manual_seed(12);
  const int64_t T = 6, B = 4, H = 32;
  const auto dtype = fused ? torch::kFloat32 : torch::kFloat64;
  const auto make = [&](std::vector<int64_t> shape, double scale) {
    return (torch::randn(shape, torch::kFloat64) * scale).to(device, dtype).requires_grad_(true);
  };
  auto xp = make({T, B, 4 * H}, 0.5);
  auto h0 = make({B, H}, 0.5);
  auto c0 = make({B, H}, 0.5);
  auto wH = make({4 * H, H}, 0.3);
  const auto upstream = torch::randn({T, B, H}, torch::kFloat64).to(device, dtype);
  WindowRun run;
  if (fused) {
    const auto out = engine::cudaFusedWindow<engine::LstmWindow>({xp, h0, c0, wH, torch::Tensor()});
    run.hs = out.hs;
    run.c = out.c;
  } else {
    auto h = h0;
    auto c = c0;
    std::vector<torch::Tensor> hs;
    for (int64_t t = 0; t < T; ++t) {
      const auto gates = (xp.select(0, t) + torch::mm(h, wH.t())).chunk(4, 1);
      c = torch::sigmoid(gates[1]) * c + torch::sigmoid(gates[0]) * torch::tanh(gates[3]);
      h = torch::sigmoid(gates[2]) * torch::tanh(c);
      hs.push_back(h);
    }
    run.hs = torch::stack(hs);
    run.c = c;
  }
  ((run.hs * upstream).sum() + run.c.sum()).backward();
  run.grads = {xp.grad(), h0.grad(), c0.grad(), wH.grad()};
  return run;
}

}  // namespace

MRNN_TEST(fused_cuda_mlstm_window_equals_the_generic_loop) {
  const torch::Device gpu = gpuWithKernels();
  const char* names[] = {"xp", "h0", "c0", "W_mh", "W_m"};
  for (bool withMask : {false, true}) {
    const auto fused = mlstmWindow(true, gpu, withMask);
    const auto loop = mlstmWindow(false, gpu, withMask);
    EXPECT_MSG(relativeDifference(fused.hs, loop.hs) < 2e-5, "hs, mask " << withMask);
    EXPECT_MSG(relativeDifference(fused.c, loop.c) < 2e-5, "c, mask " << withMask);
    for (size_t k = 0; k < fused.grads.size(); ++k) {
      EXPECT_MSG(relativeDifference(fused.grads[k], loop.grads[k]) < 1e-4,
                 "gradient of " << names[k] << ", mask " << withMask << ": "
                                << relativeDifference(fused.grads[k], loop.grads[k]));
    }
  }
}

// Under bf16 autocast the fused window multiplies at bfloat16 (operands rounded, float32
// sums) and keeps its states in float32: within bfloat16's reach of the float64 loop, yet
// visibly not float32; xp's gradient comes back in xp's bfloat16.
MRNN_TEST(fused_cuda_mlstm_window_under_bf16_autocast_multiplies_at_bfloat16) {
  const torch::Device gpu = gpuWithKernels();
  const char* names[] = {"xp", "h0", "c0", "W_mh", "W_m"};
  for (bool withMask : {false, true}) {
    const auto fused = mlstmWindow(true, gpu, withMask, true);
    const auto loop = mlstmWindow(false, gpu, withMask);
    EXPECT_MSG(fused.hs.scalar_type() == torch::kFloat32, "the states left float32");
    EXPECT_MSG(fused.grads[0].scalar_type() == torch::kBFloat16, "xp's gradient is not bfloat16");
    const double hs = relativeDifference(fused.hs, loop.hs);
    EXPECT_MSG(hs < 2e-2 && hs > 1e-4, "hs differs by " << hs << ", mask " << withMask);
    for (size_t k = 0; k < fused.grads.size(); ++k) {
      EXPECT_MSG(relativeDifference(fused.grads[k], loop.grads[k]) < 5e-2,
                 "gradient of " << names[k] << ", mask " << withMask << ": "
                                << relativeDifference(fused.grads[k], loop.grads[k]));
    }
  }
}

MRNN_TEST(fused_cuda_lstm_window_equals_the_generic_loop) {
  const torch::Device gpu = gpuWithKernels();
  const auto fused = lstmWindow(true, gpu);
  const auto loop = lstmWindow(false, gpu);
  EXPECT_MSG(relativeDifference(fused.hs, loop.hs) < 2e-5, "hs");
  EXPECT_MSG(relativeDifference(fused.c, loop.c) < 2e-5, "c");
  const char* names[] = {"xp", "h0", "c0", "W_h"};
  for (size_t k = 0; k < fused.grads.size(); ++k) {
    EXPECT_MSG(
        relativeDifference(fused.grads[k], loop.grads[k]) < 1e-4,
        "gradient of " << names[k] << ": " << relativeDifference(fused.grads[k], loop.grads[k]));
  }
}

MRNN_TEST(training_on_the_gpu_matches_the_cpu) {
  requireGpu();
  ScratchProject onCpu("gpu-vs-cpu-cpu");
  ScratchProject onGpu("gpu-vs-cpu-gpu");
  // No dropout: masks come from each device's own generator, so only the arithmetic
  // (float32 on both, products in another order) may differ.
  auto cpuProject = onCpu.project();
  cpuProject.model.dropout = {};
  cpuProject.training.randomBptt = false;
  cpuProject.training.maxSteps = 20;
  auto gpuProject = onGpu.project();
  gpuProject.model.dropout = {};
  gpuProject.training.randomBptt = false;
  gpuProject.training.maxSteps = 20;
  gpuProject.training.device = "cuda";
  const auto a = trainToEnd(cpuProject);
  const auto b = trainToEnd(gpuProject);
  EXPECT_MSG(a.finished, a.reason);
  EXPECT_MSG(b.finished, b.reason);
  EXPECT_MSG(std::abs(a.bestValid - b.bestValid) < 1e-3 * std::max(1.0, a.bestValid),
             "validation " << a.bestValid << " on the CPU, " << b.bestValid << " on the GPU");
  const auto wa = loadWeights(cpuProject, a.latestCheckpoint);
  const auto wb = loadWeights(gpuProject, b.latestCheckpoint);  // read onto the CPU
  const auto pb = wb->named_parameters();
  for (const auto& item : wa->named_parameters()) {
    EXPECT_MSG(!pb[item.key()].is_cuda(), item.key() << " was not read onto the CPU");
    EXPECT_MSG(
        relativeDifference(item.value(), pb[item.key()]) < 1e-3,
        item.key() << " after 20 steps: " << relativeDifference(item.value(), pb[item.key()]));
  }
}

MRNN_TEST(resume_on_the_gpu_continues_exactly) {
  requireGpu();
  ScratchProject whole("gpu-resume-whole");
  ScratchProject split("gpu-resume-split");
  auto wholeProject = whole.project();  // with dropout: the GPU generator must be restored
  wholeProject.training.device = "cuda";
  const auto uninterrupted = trainToEnd(wholeProject);
  EXPECT_MSG(uninterrupted.finished, uninterrupted.reason);

  auto firstHalf = split.project();
  firstHalf.training.device = "cuda";
  firstHalf.training.maxSteps = 6;
  const auto first = trainToEnd(firstHalf);
  EXPECT_MSG(first.finished, first.reason);
  auto secondHalf = split.project();
  secondHalf.training.device = "cuda";
  const auto second =
      trainToEnd(secondHalf, first.latestCheckpoint, engine::lengthOf(secondHalf.training));
  EXPECT_MSG(second.finished, second.reason);
  EXPECT_EQ(second.steps, uninterrupted.steps);

  const auto a = loadWeights(wholeProject, uninterrupted.latestCheckpoint);
  const auto b = loadWeights(secondHalf, second.latestCheckpoint);
  const auto pb = b->named_parameters();
  for (const auto& item : a->named_parameters()) {
    EXPECT_MSG(torch::equal(item.value(), pb[item.key()]),
               item.key() << " differs after 6 + 6 GPU steps from 12 uninterrupted ones: "
                          << relativeDifference(item.value(), pb[item.key()]));
  }
}

MRNN_TEST(a_checkpoint_from_the_gpu_resumes_on_the_cpu) {
  requireGpu();
  ScratchProject scratch("gpu-to-cpu");
  auto project = scratch.project();
  project.training.device = "cuda";
  project.training.maxSteps = 6;
  const auto first = trainToEnd(project);
  EXPECT_MSG(first.finished, first.reason);
  project.training.device = "cpu";
  project.training.maxSteps = 12;
  const auto second =
      trainToEnd(project, first.latestCheckpoint, engine::lengthOf(project.training));
  EXPECT_MSG(second.finished, second.reason);
  EXPECT_EQ(second.steps, int64_t{12});
  // And back again.
  project.training.device = "cuda:0";
  project.training.maxSteps = 16;
  const auto third =
      trainToEnd(project, second.latestCheckpoint, engine::lengthOf(project.training));
  EXPECT_MSG(third.finished, third.reason);
  EXPECT_EQ(third.steps, int64_t{16});
}

MRNN_TEST(nan_on_the_gpu_stops_the_run_cleanly) {
  requireGpu();
  ScratchProject scratch("gpu-nan");
  auto project = scratch.project();
  project.training.device = "cuda";
  project.training.optimizer.epsilon = 1e-300;  // Adam divides 0 by 0 (see training_test)
  project.training.checkpointEvery = 1;
  project.training.validateEvery = 1;
  project.training.maxSteps = 4;
  const auto outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("NaN") != std::string::npos, outcome.reason);
  EXPECT(!std::filesystem::exists(outcome.latestCheckpoint));
  engine::RunStore store(engine::RunPaths::database(project.folder));
  const auto run = store.run(outcome.runId);
  EXPECT(run && run->status == engine::RunStatus::Failed);
}

MRNN_TEST(a_model_larger_than_the_gpu_is_refused_naming_its_size) {
  requireGpu();
  ScratchProject huge("gpu-too-large");
  auto project = huge.project();
  project.training.device = "cuda";
  project.training.maxSteps = 2;
  // W_m alone is 4 x 200000^2 floats: 640 GB, more than any one GPU holds.
  project.model.layers[0].hiddenSize = 200000;
  project.model.layers[0].mSize = 0;
  const auto outcome = trainToEnd(project);
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("hidden size 200000") != std::string::npos, outcome.reason);
  EXPECT_MSG(outcome.reason.find("GPU memory") != std::string::npos, outcome.reason);
  EXPECT_MSG(outcome.reason.find("cuda:0") != std::string::npos, outcome.reason);
}

MRNN_TEST(running_out_of_gpu_memory_names_the_size_and_leaves_the_gpu_usable) {
  requireGpu();
  const torch::Device gpu(torch::kCUDA, 0);
  const auto devices = engine::listComputeDevices();
  const int64_t used = engine::gpuMemoryInUse(gpu);
  if (devices.gpus.empty() || devices.gpus[0].memoryBytes <= 0 || used < 0) {
    MRNN_SKIP("this build cannot read the GPU's memory (no engine/cuda)");
  }
  ScratchProject scratch("gpu-oom");
  auto project = scratch.project();
  project.training.device = "cuda";
  project.training.maxSteps = 2;
  project.training.batchSize = 64;
  project.training.bptt = 100;
  project.training.randomBptt = false;
  project.model.layers[0].hiddenSize = 4096;  // fits the estimate; the GPU is nearly full
  engine::TrainingOutcome outcome;
  {
    // Another tenant holds all but 256 MB of the GPU.
    const int64_t free = devices.gpus[0].memoryBytes - used;
    const int64_t hog = std::max<int64_t>(0, free - (int64_t{256} << 20));
    const auto holder = torch::empty({hog / 4}, torch::TensorOptions(torch::kFloat).device(gpu));
    outcome = trainToEnd(project);
  }
  EXPECT(outcome.failed);
  EXPECT_MSG(outcome.reason.find("ran out of memory") != std::string::npos, outcome.reason);
  EXPECT_MSG(outcome.reason.find("hidden size 4096") != std::string::npos, outcome.reason);
  EXPECT_MSG(outcome.reason.find("batch 64") != std::string::npos, outcome.reason);
  EXPECT_MSG(outcome.reason.size() < 400, "a page of allocator figures: " << outcome.reason);
  engine::RunStore store(engine::RunPaths::database(project.folder));
  const auto run = store.run(outcome.runId);
  EXPECT(run && run->status == engine::RunStatus::Failed);
  // With the memory back, the same process trains the same model on the same GPU.
  const auto after = trainToEnd(project);
  EXPECT_MSG(after.finished, after.reason);
}
