#include "engine/bench/throughput_probe.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <stdexcept>

#include "engine/bench/bench_model.h"
#include "engine/bench/flop_count.h"
#include "engine/bench/probe_timing.h"
#include "engine/bench/torch_lstm_probe.h"
#include "engine/devices/autocast_scope.h"
#include "engine/devices/compute_device.h"
#include "engine/devices/torch_threads.h"
#include "engine/models/language_model.h"
#include "engine/sampling/sampler.h"
#include "engine/training/evaluator.h"
#include "engine/training/local_collective.h"
#include "engine/training/train_step.h"
#include "engine/training/window_objective.h"

namespace mrnn::engine {

namespace {

// A held-out text of `length` random symbols.
CorpusSplit randomText(int64_t vocab, int64_t length) {
  std::mt19937_64 random(11);
  std::vector<int64_t> ids(static_cast<size_t>(length) + 1);
  for (auto& id : ids) id = static_cast<int64_t>(random() % static_cast<uint64_t>(vocab));
  CorpusSplit split;
  split.tokens = TokenStream::fromIds(ids, vocab);
  return split;
}

// `threads`: null for LibTorch's default or a fixed count set before; otherwise polled between
// windows (--threads auto: the count follows other programs' load, as training's does).
ProbeResult engineProbe(const BenchShape& shape, BenchMeasure measure, const torch::Device& device,
                        LoadFollowingThreads* threads) {
  LanguageModel model(benchModelConfig(shape), shape.vocab);
  model.to(device);
  ProbeResult result;
  result.parameters = model.parameterCount();
  // Named references, not structured bindings: C++17 lambdas cannot capture those.
  const ProbeWindow window = randomWindow(shape.vocab, shape.bptt, shape.batch, device);
  const torch::Tensor& inputs = window.inputs;
  const torch::Tensor& targets = window.targets;
  const auto poll = [threads] {
    if (threads) threads->poll();
  };
  const bool bf16 = shape.precision == BenchPrecision::Bf16;
  double seconds = 0.0;
  int64_t symbols = shape.steps * shape.batch * shape.bptt;
  if (measure == BenchMeasure::Train) {
    result.flopsPerSymbol = trainingFlopsPerSymbol(model);
    torch::optim::Adam adam(model.parameters(), torch::optim::AdamOptions(1e-3));
    auto state = model.initialState(shape.batch);
    seconds = timeRepeated(device, shape.steps, [&] {
      poll();
      state.detach();
      optimisationStep(model, adam, state, inputs, targets, {}, 1.0, bf16);
    });
  } else if (measure == BenchMeasure::Curvature) {
    // One window as Hessian-free's curvature share: the products CG runs, each against the
    // kept linearisation (made in the warm-up, as CG's first product makes it).
    result.flopsPerSymbol = curvatureFlopsPerSymbol(model);
    LocalCollective local;
    ObjectiveOptions options;
    options.shard = {0, shape.batch};
    options.shape = {1, 1, 0};
    WindowObjective objective(model, local, model.initialState(shape.batch),
                              {{inputs, targets, {}, false, {}, {}}}, options);
    int64_t count = 0;
    for (const auto& p : model.parameters()) count += p.numel();
    const auto v = torch::randn({count}, model.parameters().front().options());
    seconds = timeRepeated(device, shape.steps, [&] {
      poll();
      objective.curvatureProduct(v, 0.1).sum().item<double>();
    });
  } else if (measure == BenchMeasure::Eval) {
    result.flopsPerSymbol = forwardFlopsPerSymbol(model);
    model.eval();
    torch::NoGradGuard noGrad;
    auto state = model.initialState(shape.batch);
    seconds = timeRepeated(device, shape.steps, [&] {
      poll();
      AutocastScope autocast(bf16);
      const auto logProbabilities = model.forward(inputs, state);
      // The loss, as evaluation computes it, so the softmax's work is not optimised away.
      logProbabilities.gather(2, targets.unsqueeze(2)).mean().item<double>();
    });
  } else if (measure == BenchMeasure::Score) {
    // Long enough for the streams to be a road (chooseReading).
    result.flopsPerSymbol = forwardFlopsPerSymbol(model);
    const CorpusSplit text = randomText(
        shape.vocab, std::max(shape.sampleLength, kStreamsMinWindows * shape.batch * shape.bptt));
    EvalOptions options;
    options.batch = shape.batch;
    options.bptt = shape.bptt;
    // Timed once, without a warm-up reading: the copy is part of the cost.
    const auto start = std::chrono::steady_clock::now();
    poll();
    symbols = evaluateStatic(model, text, options).symbols;
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } else {
    result.flopsPerSymbol = forwardFlopsPerSymbol(model);
    model.eval();
    const auto vocabulary = benchVocabulary(shape.vocab);
    Sampler sampler(model, vocabulary);
    SamplingOptions options;  // temperature 1, top-5 alternatives reported, as `mrnn sample`
    options.maxLength = shape.sampleLength;
    int64_t generated = 0;
    seconds = timeRepeated(device, 1, [&] {
      AutocastScope autocast(bf16);
      generated = static_cast<int64_t>(sampler.generate(options).front().symbols.size());
    });
    // The warm-up generation makes the frozen copy and the first allocations.
    symbols = generated;
  }
  result.symbolsPerSecond = static_cast<double>(symbols) / seconds;
  return result;
}

}  // namespace

ProbeResult runProbe(const BenchShape& shape, BenchMeasure measure) {
  torch::manual_seed(0);
  const auto device = resolveComputeDevice(shape.device, "--device");
  std::shared_ptr<LoadFollowingThreads> threads;
  if (shape.threads > 0) threads = torchThreads(shape.threads);
  if (shape.threads == kFollowLoad && device.is_cpu()) threads = torchThreads(0, {}, {}, 0.25);
  if (shape.precision == BenchPrecision::Bf16 && !device.is_cuda()) {
    throw std::invalid_argument(kBf16NeedsCuda);
  }
  if (shape.cell == kTorchLstm &&
      (measure == BenchMeasure::Score || measure == BenchMeasure::Curvature)) {
    throw std::invalid_argument(std::string("torch::nn::LSTM has no ") + benchMeasureName(measure) +
                                " measure; it is the engine's own");
  }
  auto result = shape.cell == kTorchLstm ? runTorchLstmProbe(shape, measure, device)
                                         : engineProbe(shape, measure, device, threads.get());
  // After the timed part, in this process of its own: what the measurement held on the GPU.
  if (device.is_cuda()) result.gpuMemoryBytes = gpuMemoryInUse(device);
  return result;
}

}  // namespace mrnn::engine
