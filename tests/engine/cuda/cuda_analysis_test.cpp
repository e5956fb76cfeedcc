// On a CUDA machine, the analyses behind `mrnn eval | sample | score | analyze --device cuda`
// give the CPU's numbers for the same checkpoint placed on the GPU, and a checkpoint written
// from a model on the GPU opens on the CPU and back with the same weights (trained on a GPU,
// analysed on a CPU laptop, and back). Without CUDA (a CPU-only LibTorch, or no GPU) every test
// reports itself skipped, never passed.

#include <torch/torch.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_device.h"
#include "engine/analysis/model_placement.h"
#include "engine/data/corpus.h"
#include "engine/devices/compute_device.h"
#include "engine/inference/single_stream_model.h"
#include "engine/models/language_model.h"
#include "engine/probing/gate_analysis.h"
#include "engine/probing/hidden_state_tree.h"
#include "engine/sampling/sampler.h"
#include "engine/scoring/debagging.h"
#include "engine/scoring/feature_masking.h"
#include "engine/scoring/text_score.h"
#include "engine/training/checkpoint.h"
#include "engine/training/evaluator.h"
#include "require_gpu.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

// Float32 on two devices: sums and kernels round differently, far below this.
constexpr double kTolerance = 1e-4;

torch::Device gpu() {
  requireGpu();
  return engine::resolveComputeDevice("cuda", "the test's device");
}

// A small model trained on the CPU for a few steps, its run's checkpoint in a scratch project
// (removed when the test process ends). Trained once, by the first test that runs on a GPU.
struct Trained {
  ScratchProject scratch{"cuda-analysis"};
  engine::Project project;
  std::string projectFile;
};

const Trained& trained() {
  static const std::unique_ptr<Trained> once = [] {
    auto t = std::make_unique<Trained>();
    t->project = t->scratch.project(6000);
    t->projectFile = t->scratch.file("project.yaml");
    const auto outcome = trainToEnd(t->project);
    EXPECT_MSG(outcome.finished, outcome.reason);
    return t;
  }();
  return *once;
}

engine::LoadedModel load(const torch::Device& device) {
  auto loaded = engine::loadModelForAnalysis(trained().projectFile, 0, "", device);
  EXPECT(engine::modelDevice(*loaded.model) == device);
  EXPECT(!loaded.model->is_training());
  return loaded;
}

void expectNear(double gpuValue, double cpuValue, const std::string& what) {
  EXPECT_MSG(std::fabs(gpuValue - cpuValue) <= kTolerance,
             what << ": " << gpuValue << " on the GPU, " << cpuValue << " on the CPU");
}

}  // namespace

MRNN_TEST(evaluation_gives_the_cpu_figures_on_gpu) {
  const auto device = gpu();
  const auto& t = trained();
  auto cpu = load(torch::kCPU);
  auto cuda = load(device);
  const auto corpus =
      engine::loadCorpus(t.project.data, t.project.model.input.level, t.project.folder);

  engine::EvalOptions options;
  options.batch = 3;  // several streams: the one-stream scorer's re-reading rounds run too
  options.bptt = 20;
  const auto onCpu = engine::evaluateStatic(*cpu.model, corpus.valid, options);
  options.device = device;
  const auto onGpu = engine::evaluateStatic(*cuda.model, corpus.valid, options);
  EXPECT_EQ(onGpu.symbols, onCpu.symbols);
  expectNear(onGpu.bitsPerSymbol, onCpu.bitsPerSymbol, "static bits per symbol");

  // Dynamic evaluation adapts the weights (and puts them back) where the model is.
  auto dynamic = engine::withTrainingBatch(t.project.evaluation.dynamic, 4);
  dynamic.gradientBatches = 3;
  engine::EvalOptions cpuOptions = options;
  cpuOptions.device = torch::kCPU;
  cpuOptions.maxSymbols = 200;
  engine::EvalOptions gpuOptions = cpuOptions;
  gpuOptions.device = device;
  const auto adaptedCpu =
      engine::evaluateDynamic(*cpu.model, corpus.valid, corpus.train, dynamic, cpuOptions);
  const auto adaptedGpu =
      engine::evaluateDynamic(*cuda.model, corpus.valid, corpus.train, dynamic, gpuOptions);
  expectNear(adaptedGpu.bitsPerSymbol, adaptedCpu.bitsPerSymbol, "dynamic bits per symbol");
}

MRNN_TEST(sampling_gives_the_cpu_text_and_log_probabilities_on_gpu) {
  const auto device = gpu();
  auto cpu = load(torch::kCPU);
  auto cuda = load(device);
  // The raw-float fast path is the CPU's alone: on a GPU the sampler steps LanguageModel.
  EXPECT(engine::SingleStreamModel::supports(*cpu.model));
  EXPECT(!engine::SingleStreamModel::supports(*cuda.model));

  engine::Sampler cpuSampler(*cpu.model, cpu.vocabulary);
  engine::Sampler gpuSampler(*cuda.model, cuda.vocabulary);
  engine::SamplingOptions options;
  options.prime = "the cat ";
  options.maxLength = 40;
  options.completions = 2;
  options.seed = 7;
  options.alternatives = 3;
  const auto onCpu = cpuSampler.generate(options);
  const auto onGpu = gpuSampler.generate(options);
  EXPECT_EQ(onGpu.size(), onCpu.size());
  for (size_t c = 0; c < onCpu.size(); ++c) {
    EXPECT_EQ(onGpu[c].text, onCpu[c].text);
    expectNear(onGpu[c].logProbability, onCpu[c].logProbability, "a completion's log p");
  }

  // The log-probabilities of a fixed text (the CPU's first completion), symbol by symbol:
  // each branch keeps the text before a position and scores the text's own symbol there.
  const auto& text = onCpu.front();
  for (size_t i = 0; i < text.symbols.size(); ++i) {
    engine::SamplingOptions upTo = options;
    upTo.maxLength = static_cast<int64_t>(i) + 1;
    upTo.completions = 1;
    const auto branched = gpuSampler.branch(text, i, text.symbols[i].id, upTo).front();
    EXPECT_EQ(branched.symbols.size(), i + 1);
    expectNear(branched.symbols.back().logProbability, text.symbols[i].logProbability,
               "log p of symbol " + std::to_string(i + 1) + " of the fixed text");
  }

  // Beam search advances its beams as one batch on the model's device.
  options.beamWidth = 3;
  options.maxLength = 12;
  const auto beamsCpu = cpuSampler.generate(options);
  const auto beamsGpu = gpuSampler.generate(options);
  EXPECT_EQ(beamsGpu.size(), beamsCpu.size());
  for (size_t b = 0; b < beamsCpu.size(); ++b) {
    EXPECT_EQ(beamsGpu[b].text, beamsCpu[b].text);
    expectNear(beamsGpu[b].logProbability, beamsCpu[b].logProbability, "a beam's log p");
  }
}

MRNN_TEST(gate_analysis_gives_the_cpu_traces_on_gpu) {
  const auto device = gpu();
  auto cpu = load(torch::kCPU);
  auto cuda = load(device);
  const std::string text = "the cat sat on a mat and the dog ran to its red ball.";
  const auto onCpu = engine::analyzeGates(*cpu.model, cpu.vocabulary, text);
  const auto onGpu = engine::analyzeGates(*cuda.model, cuda.vocabulary, text);
  EXPECT_EQ(onGpu.traces.size(), onCpu.traces.size());
  EXPECT(!onCpu.traces.empty());
  for (size_t p = 0; p < onCpu.traces.size(); ++p) {
    const auto& a = onGpu.traces[p];
    const auto& b = onCpu.traces[p];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.values.size(), b.values.size());
    double worst = 0.0;
    for (size_t i = 0; i < b.values.size(); ++i) {
      worst = std::max(worst, std::fabs(static_cast<double>(a.values[i]) - b.values[i]));
    }
    expectNear(worst, 0.0, "the largest difference in " + b.name);
    expectNear(onGpu.statistics[p].mean, onCpu.statistics[p].mean, b.name + "'s mean");
  }

  engine::TreeOptions tree;
  tree.depth = 2;
  tree.topK = 3;
  const auto treeCpu = engine::expandTree(*cpu.model, cpu.vocabulary, "the ", tree);
  const auto treeGpu = engine::expandTree(*cuda.model, cuda.vocabulary, "the ", tree);
  EXPECT_EQ(treeGpu.nodes.size(), treeCpu.nodes.size());
  for (size_t n = 0; n < treeCpu.nodes.size() && n < treeGpu.nodes.size(); ++n) {
    EXPECT_EQ(treeGpu.nodes[n].symbol, treeCpu.nodes[n].symbol);
    expectNear(treeGpu.nodes[n].cumulativeLogProb, treeCpu.nodes[n].cumulativeLogProb,
               "a tree node's log p");
  }
}

MRNN_TEST(text_scoring_gives_the_cpu_bits_on_gpu) {
  const auto device = gpu();
  const auto& t = trained();
  auto cpu = load(torch::kCPU);
  auto cuda = load(device);
  const std::string text = "then the dog slept on a red mat.";
  const auto onCpu = engine::scoreText(*cpu.model, cpu.vocabulary, text, "the cat ", nullptr,
                                       /*window=*/8, /*alternatives=*/3);
  const auto onGpu = engine::scoreText(*cuda.model, cuda.vocabulary, text, "the cat ", nullptr,
                                       /*window=*/8, /*alternatives=*/3);
  expectNear(onGpu.bitsPerSymbol, onCpu.bitsPerSymbol, "bits per symbol");
  EXPECT_EQ(onGpu.symbols.size(), onCpu.symbols.size());
  for (size_t i = 0; i < onCpu.symbols.size(); ++i) {
    const auto& a = onGpu.symbols[i];
    const auto& b = onCpu.symbols[i];
    expectNear(a.bits, b.bits, "the bits of symbol " + std::to_string(i + 1));
    EXPECT_EQ(a.alternatives.size(), b.alternatives.size());
    for (size_t k = 0; k < b.alternatives.size(); ++k) {
      expectNear(a.alternatives[k].probability, b.alternatives[k].probability,
                 "an alternative's probability");
    }
  }

  // Per-symbol losses (surprisal recovery), debagging and feature masking.
  const auto ids = cpu.vocabulary.encode(text);
  const auto lossesCpu = engine::symbolLosses(*cpu.model, ids);
  const auto lossesGpu = engine::symbolLosses(*cuda.model, ids);
  EXPECT_EQ(lossesGpu.size(), lossesCpu.size());
  for (size_t i = 0; i < lossesCpu.size(); ++i) expectNear(lossesGpu[i], lossesCpu[i], "a loss");

  const std::vector<std::string> bag{"cat", "sat", "on"};
  engine::DebagOptions debagging;
  const auto debagCpu =
      engine::debag(*cpu.model, cpu.vocabulary, "the ", bag, " a mat.", debagging);
  const auto debagGpu =
      engine::debag(*cuda.model, cuda.vocabulary, "the ", bag, " a mat.", debagging);
  expectNear(debagGpu.trueLogProb, debagCpu.trueLogProb, "the true order's log p");
  EXPECT_EQ(debagGpu.orderings.size(), debagCpu.orderings.size());
  debagging.exhaustiveLimit = 2;  // beam search
  debagging.beamWidth = 2;
  const auto beamCpu = engine::debag(*cpu.model, cpu.vocabulary, "the ", bag, " a mat.", debagging);
  const auto beamGpu =
      engine::debag(*cuda.model, cuda.vocabulary, "the ", bag, " a mat.", debagging);
  EXPECT_EQ(beamGpu.orderings.size(), beamCpu.orderings.size());
  for (size_t i = 0; i < beamCpu.orderings.size() && i < beamGpu.orderings.size(); ++i) {
    expectNear(beamGpu.orderings[i].logProb, beamCpu.orderings[i].logProb, "a beam's log p");
  }

  const auto corpus =
      engine::loadCorpus(t.project.data, t.project.model.input.level, t.project.folder);
  engine::MaskingOptions masking;
  masking.pMax = 0.2;
  masking.pStep = 0.1;
  masking.runs = 2;
  masking.eval.batch = 2;
  masking.eval.bptt = 20;
  masking.eval.maxSymbols = 300;
  const auto curveCpu = engine::featureMasking(*cpu.model, corpus.valid, masking);
  const auto curveGpu = engine::featureMasking(*cuda.model, corpus.valid, masking);
  EXPECT_EQ(curveGpu.meanLoss.size(), curveCpu.meanLoss.size());
  for (size_t i = 0; i < curveCpu.meanLoss.size(); ++i) {
    expectNear(curveGpu.meanLoss[i], curveCpu.meanLoss[i], "a masking level's mean loss");
  }
}

MRNN_TEST(a_checkpoint_written_on_gpu_opens_on_cpu_and_back) {
  const auto device = gpu();
  const auto& t = trained();
  auto cuda = load(device);
  // Weights only a GPU has had: a step of "training" there.
  {
    torch::NoGradGuard noGrad;
    torch::manual_seed(3);
    for (auto& p : cuda.model->parameters()) p.add_(0.01 * torch::randn_like(p));
  }
  const auto snapshot = engine::Checkpoint::open(cuda.checkpoint).snapshot();
  const std::string fromGpu = t.scratch.file("from-gpu.pt");
  engine::Checkpoint::save(fromGpu, snapshot, *cuda.model, nullptr, nullptr);

  // On a CPU laptop: the same weights, and the same analysis figures.
  auto laptop = engine::loadModelFromCheckpoint(fromGpu);
  EXPECT(engine::modelDevice(*laptop.model).is_cpu());
  const auto gpuWeights = cuda.model->named_parameters();
  for (const auto& entry : laptop.model->named_parameters()) {
    EXPECT_MSG(torch::equal(entry.value(), gpuWeights[entry.key()].cpu()),
               entry.key() << " changed on the way to the CPU");
  }
  const std::string text = "the dog ran to its red ball.";
  expectNear(engine::scoreText(*cuda.model, cuda.vocabulary, text).bitsPerSymbol,
             engine::scoreText(*laptop.model, laptop.vocabulary, text).bitsPerSymbol,
             "the score of the GPU's weights on the CPU");

  // And back: written on the CPU, opened on the GPU.
  const std::string fromCpu = t.scratch.file("from-cpu.pt");
  engine::Checkpoint::save(fromCpu, snapshot, *laptop.model, nullptr, nullptr);
  auto back = engine::loadModelFromCheckpoint(fromCpu, device);
  EXPECT(engine::modelDevice(*back.model) == device);
  const auto laptopWeights = laptop.model->named_parameters();
  for (const auto& entry : back.model->named_parameters()) {
    EXPECT(entry.value().device() == device);
    EXPECT_MSG(torch::equal(entry.value().cpu(), laptopWeights[entry.key()]),
               entry.key() << " changed on the way back to the GPU");
  }
}
