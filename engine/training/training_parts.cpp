#include "engine/training/training_parts.h"

#include <torch/torch.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "engine/config/model_names.h"
#include "engine/config/parameter_count.h"
#include "engine/config/project_file.h"
#include "engine/config/training_memory.h"
#include "engine/data/stream_batcher.h"
#include "engine/devices/compute_device.h"
#include "engine/devices/torch_threads.h"
#include "engine/optim/lr_schedule.h"
#include "engine/optim/update_rule_factory.h"
#include "engine/runtime/machine_resources.h"
#include "engine/store/text_format.h"
#include "engine/training/checkpoint.h"
#include "engine/training/collective.h"
#include "engine/training/evaluator.h"
#include "engine/training/gradient_buckets.h"
#include "engine/training/training_data.h"
#include "engine/training/training_preflight.h"
#include "engine/training/window_tensor.h"

namespace mrnn::engine {
namespace {

int64_t largestHiddenSize(const ModelConfig& model) {
  int64_t hidden = 0;
  for (const auto& layer : model.layers) hidden = std::max(hidden, layer.hiddenSize);
  return hidden;
}

// Refuses, in words, a model whose training would not fit; returns what memory errors name.
std::string checkMemory(const Project& project, int64_t vocab, const torch::Device& device) {
  const TrainingConfig& training = project.training;
  const int64_t parameters = summarizeModel(project.model, vocab).totalParameters;
  const double bytes = trainingBytes(project.model, parameters, vocab, training);
  const std::string sizeText = "hidden size " + std::to_string(largestHiddenSize(project.model)) +
                               ", " + groupedInteger(parameters) + " parameters, batch " +
                               std::to_string(training.batchSize) + " x bptt " +
                               std::to_string(training.bptt);
  const std::string what = "training this model (" + sizeText + ")";
  const std::string advice = "Make the layers smaller (hidden_size) or the batch or bptt shorter";
  requireMemory(hostTrainingBytes(project.model, parameters, vocab, training, !device.is_cpu()),
                what, advice);
  if (!device.is_cpu()) requireGpuMemory(device, bytes, what, advice);
  return sizeText;
}

}  // namespace

TrainingParts::TrainingParts() = default;
TrainingParts::~TrainingParts() = default;
TrainingParts::TrainingParts(TrainingParts&&) noexcept = default;
TrainingParts& TrainingParts::operator=(TrainingParts&&) noexcept = default;

double TrainingParts::epochNow() const {
  return static_cast<double>(batcher->epoch()) + batcher->epochProgress();
}

std::vector<ObjectiveWindow> TrainingParts::nextWindows(bool carryState,
                                                        const std::function<bool()>& done) {
  std::vector<ObjectiveWindow> windows;
  const auto wanted = static_cast<size_t>(rule->shape().gradientWindows);
  while (windows.size() < wanted) {
    const std::string before = batcher->saveState();
    const Window window = batcher->next();
    if (done()) {
      batcher->restoreState(before);  // that window belongs to the next epoch
      break;
    }
    ObjectiveWindow objective;
    objective.inputs = windowTensor(window.inputs, window.steps, window.batch, device);
    objective.targets = windowTensor(window.targets, window.steps, window.batch, device);
    if (!window.lossMask.empty()) {
      objective.mask = windowTensor(window.lossMask, window.steps, window.batch, device);
    }
    objective.values = valuesTensor(window.inputValues, window.steps, window.batch, device);
    objective.targetValues = valuesTensor(window.targetValues, window.steps, window.batch, device);
    objective.freshState = window.epochStart || window.freshState || !carryState;
    windows.push_back(std::move(objective));
  }
  return windows;
}

LossFigures TrainingParts::evaluate(TrainingData::HeldOut split, int64_t batch, int64_t bptt,
                                    int64_t maxSymbols, Collective& collective, JobContext& job) {
  EvalOptions options;
  options.batch = batch;
  options.bptt = bptt;
  options.maxSymbols = maxSymbols;
  options.device = device;
  options.collective = &collective;
  return data->evaluate(split, *model, options, &job);
}

std::string TrainingParts::description(const Project& project, const Collective& collective) const {
  std::string text = modelTypeSummary(project.model) + " (" +
                     std::to_string(model->parameterCount()) + " parameters) on " +
                     data->describe() + ", vocabulary " + std::to_string(vocabularySize()) +
                     ", device " + describeComputeDevice(device);
  if (collective.size() > 1) {
    text += ", rank " + std::to_string(collective.rank()) + " of " +
            std::to_string(collective.size()) + " (streams " + std::to_string(shard.begin) + "-" +
            std::to_string(shard.begin + shard.count - 1) + ")";
  }
  return text;
}

ObjectiveOptions TrainingParts::objectiveOptions(bool bf16) const {
  ObjectiveOptions options;
  options.shard = shard;
  options.shape = rule->shape();
  options.bf16 = bf16;
  options.buckets = buckets.get();
  return options;
}

void TrainingParts::loadWeights(const std::string& path) {
  if (!std::filesystem::exists(path)) return;
  Checkpoint checkpoint = Checkpoint::open(path);
  model->to(torch::kCPU);
  checkpoint.loadModel(*model);
  model->to(device);
}

int64_t TrainingParts::vocabularySize() const {
  return data->vocabulary().size();
}

TrainingParts buildTrainingParts(const Project& project, Collective& collective,
                                 const std::function<void(const std::string&)>& log,
                                 const StopCheck& stop) {
  const TrainingConfig& training = project.training;
  const bool ranked = collective.size() > 1;
  TrainingParts parts;
  parts.device = resolveComputeDevice(training.device, "training.device");
  if (training.bf16 && !parts.device.is_cuda()) {
    throw std::runtime_error(
        "training.bf16: bf16 autocast needs a GPU, and this run's device is '" + training.device +
        "': choose a GPU (--device cuda, or the training panel's device) "
        "or set bf16: false");
  }
  // A GPU's or a rank's threads stay fixed: all the processors, unless the file says.
  const bool follow = parts.device.is_cpu() && !ranked;
  parts.threads =
      torchThreads(follow || training.threads > 0 ? training.threads : chooseThreadCount(0), log,
                   {"training", "training.threads: 0 follows the load"}, 0.25);
  torch::manual_seed(training.seed);

  parts.data = std::make_unique<TrainingData>(project, log, stop);
  const int64_t vocab = parts.vocabularySize();
  if (project.model.input.vocabSize > 0 && project.model.input.vocabSize != vocab) {
    log("the corpus has " + std::to_string(vocab) + " symbols; model.input.vocab_size (" +
        std::to_string(project.model.input.vocabSize) + ") is replaced by it");
  }
  parts.sizeText = checkMemory(project, vocab, parts.device);
  parts.shard = streamShard(training.batchSize, collective.rank(), collective.size());
  parts.model = std::make_unique<LanguageModel>(project.model, vocab);
  parts.model->to(parts.device);
  parts.model->train();
  parts.rule = makeUpdateRule(training, parts.model->parameters());
  broadcastParameters(parts.model->parameters(), collective);
  // Each rank draws its own dropout masks; rank 0 draws as one process would.
  if (collective.rank() > 0) torch::manual_seed(training.seed + 7919 * collective.rank());
  if (ranked && parts.rule->shape().gradientWindows == 1) {
    parts.buckets = std::make_unique<GradientBuckets>(parts.model->parameters(), collective);
  }

  parts.batcher = parts.data->windows(training);
  const int64_t windowsPerStep = parts.rule->shape().gradientWindows;
  const int64_t stepsPerEpoch = std::max<int64_t>(
      1, (parts.batcher->windowsPerEpoch() + windowsPerStep - 1) / windowsPerStep);
  parts.totalSteps = training.maxSteps > 0 ? training.maxSteps : training.epochs * stepsPerEpoch;
  parts.schedule = std::make_unique<LrSchedule>(
      training.schedule, baseLearningRate(training.optimizer), parts.totalSteps, stepsPerEpoch);
  parts.state = parts.model->initialState(parts.shard.count);
  return parts;
}

}  // namespace mrnn::engine
