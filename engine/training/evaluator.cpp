#include "engine/training/evaluator.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/data/stream_batcher.h"
#include "engine/inference/single_stream_scoring.h"
#include "engine/models/eval_mode_guard.h"
#include "engine/runtime/job_context.h"
#include "engine/runtime/machine_resources.h"
#include "engine/training/data_parallel.h"
#include "engine/training/one_stream_scorer.h"
#include "engine/training/window_tensor.h"

namespace mrnn::engine {
namespace {

TokenStream limited(const TokenStream& tokens, int64_t maxSymbols) {
  if (maxSymbols <= 0 || maxSymbols + 1 >= tokens.size()) return tokens.slice(0, tokens.size());
  return tokens.slice(0, maxSymbols + 1);  // +1: the last target
}

// The split's target mask cut like its tokens (empty stays empty: every target counts).
TokenStream limitedMask(const CorpusSplit& split, int64_t maxSymbols) {
  if (split.targetMask.size() == 0) return split.targetMask;
  return limited(split.targetMask, maxSymbols);
}

// One window's negative log-likelihoods [T, B] summed over the targets that count, and how
// many those are: all of them, or the ones the window's loss mask keeps (a corpus target mask,
// so that only the reverse copy task's reversed half is scored). Masked positions are
// selected, not multiplied by 0, so that an infinite loss there cannot turn the sum into NaN.
std::pair<torch::Tensor, int64_t> countedLoss(const torch::Tensor& nll, const Window& window,
                                              const torch::Device& device) {
  if (window.lossMask.empty()) return {nll.sum(), window.steps * window.batch};
  const auto keep = windowTensor(window.lossMask, window.steps, window.batch, device) > 0.5f;
  int64_t count = 0;
  for (const float m : window.lossMask) count += m > 0.5f ? 1 : 0;
  return {torch::where(keep, nll, torch::zeros_like(nll)).sum(), count};
}

// Words scale with the symbols actually scored when only a prefix is evaluated.
int64_t wordsScored(const CorpusSplit& split, int64_t symbols) {
  const int64_t total = split.tokens.size();
  if (split.words <= 0 || total <= 1) return split.words;
  return static_cast<int64_t>(
      std::llround(static_cast<double>(split.words) * static_cast<double>(symbols) /
                   static_cast<double>(total - 1)));
}

// Log-probabilities at temperature T: log softmax(logp / T).
torch::Tensor tempered(const torch::Tensor& logp, double temperature) {
  return temperature == 1.0 ? logp : torch::log_softmax(logp / temperature, -1);
}

// Whether the frozen single-stream copy can give this evaluation's figure (EvalOptions::reading).
bool singleStreamApplies(const LanguageModel& model, const EvalOptions& options) {
  if (options.reading == HeldOutReading::Streams || !options.device.is_cpu()) return false;
  if (options.mcSamples > 0 || (options.collective && options.collective->size() > 1)) return false;
  // Per-window draws at batch 1 are one stream's windows either way; at batch B they are
  // drawn for B streams at once, which one stream cannot reproduce.
  if (options.beforeWindow && options.batch > 1) return false;
  if (model.config().output.kind == OutputKind::Linear) return false;
  return SingleStreamModel::supports(model);
}

// The split read once as one stream on the frozen copy, summed at each temperature; null when
// the copy does not apply or the streams are chosen. The model is in eval mode meanwhile.
std::optional<SingleStreamTotals> readAsSingleStream(
    LanguageModel& model, const TokenStream& tokens, const TokenStream& mask,
    const EvalOptions& options, const std::vector<double>& temperatures, JobContext* job) {
  if (!singleStreamApplies(model, options)) return std::nullopt;
  if (options.reading == HeldOutReading::Chosen &&
      chooseReading(model, tokens.size() - 1, options.batch, options.bptt) ==
          HeldOutReading::Streams) {
    return std::nullopt;
  }
  EvalModeGuard evalMode(model);
  SingleStreamModel frozen(model);
  SingleStreamScoring scoring;
  scoring.temperatures = temperatures;
  scoring.window = options.bptt;
  if (options.beforeWindow) {
    scoring.beforeWindow = [&] {
      options.beforeWindow(1);
      frozen.readSettings(model);
    };
  }
  scoring.progress = [&](double done) { reportTo(job, done, "scoring"); };
  return scoreSingleStream(frozen, tokens, mask, scoring);
}

LossFigures figuresOf(const CorpusSplit& split, double nats, int64_t counted, int64_t positions) {
  return lossFigures(counted > 0 ? nats / static_cast<double>(counted) : 0.0, counted,
                     wordsScored(split, positions));
}

// MC dropout keeps, for each mask, its state and a window's predictions (and their stack):
// refused at once when that is more than the machine has, not after minutes of growing.
void requireMcMemory(const LanguageModel& model, int64_t symbols, const EvalOptions& options) {
  const int64_t batch = std::max<int64_t>(options.batch, 1);
  const int64_t window = std::min(options.bptt, std::max<int64_t>(symbols / batch, 1));
  const double stateBytes = model.initialState(batch).bytes();
  const double predictions = 8.0 * static_cast<double>(window) * static_cast<double>(batch) *
                             static_cast<double>(model.vocab());
  requireMemory(static_cast<double>(options.mcSamples) * (stateBytes + predictions),
                "MC dropout with " + std::to_string(options.mcSamples) + " masks",
                "Ask for fewer masks");
}

}  // namespace

std::vector<torch::Tensor> rmsGradientStatistics(LanguageModel& model, const CorpusSplit& train,
                                                 const DynamicEvalConfig& config,
                                                 const torch::Device& device) {
  if (config.gradientBatchSize < 1)
    throw std::invalid_argument(
        "dynamic evaluation: the gradient batch size is not set (0 means the training batch "
        "size, which the caller fills in)");
  const bool wasTraining = model.is_training();
  model.eval();
  auto parameters = model.parameters();
  BatcherOptions batching;
  batching.batch = std::min<int64_t>(config.gradientBatchSize,
                                     std::max<int64_t>(1, (train.tokens.size() - 1) / 2));
  batching.bptt = config.window;
  StreamBatcher batcher(train.tokens, batching, train.targetMask);
  std::vector<torch::Tensor> squares;
  for (const auto& p : parameters) squares.push_back(torch::zeros_like(p));
  auto state = model.initialState(batching.batch);
  int64_t batches = 0;
  while (config.gradientBatches <= 0 || batches < config.gradientBatches) {
    const Window window = batcher.next();
    if (window.epochStart && batches > 0) break;  // the whole training set read once
    model.zero_grad();
    const auto logp =
        model.forward(windowTensor(window.inputs, window.steps, window.batch, device), state);
    const auto targets = windowTensor(window.targets, window.steps, window.batch, device);
    const auto [sum, count] =
        countedLoss(-logp.gather(2, targets.unsqueeze(2)).squeeze(2), window, device);
    (sum / static_cast<double>(std::max<int64_t>(count, 1))).backward();  // the mean, as the rule
    state.detach();
    torch::NoGradGuard noGrad;
    for (size_t i = 0; i < parameters.size(); ++i) {
      if (parameters[i].grad().defined()) squares[i] += parameters[i].grad().pow(2);
    }
    ++batches;
  }
  model.zero_grad();
  model.train(wasTraining);
  std::vector<torch::Tensor> rms;
  for (auto& sq : squares) rms.push_back((sq / static_cast<double>(batches)).sqrt());
  return rms;
}

std::vector<torch::Tensor> rmsDecayRates(const std::vector<torch::Tensor>& rms, double lambda) {
  double gsum = 0.0;
  for (const auto& r : rms) gsum += r.mean().item<double>();
  gsum /= static_cast<double>(std::max<size_t>(1, rms.size()));
  std::vector<torch::Tensor> rates;
  for (const auto& r : rms) {
    // lambda * min(MS / gsum, 1 / lambda): a decay step never overshoots theta0.
    auto rate = gsum > 0.0 ? r / gsum : torch::zeros_like(r);
    if (lambda > 0.0) rate = torch::clamp_max(rate, 1.0 / lambda);
    rates.push_back(lambda * rate);
  }
  return rates;
}

LossFigures evaluateStatic(LanguageModel& model, const CorpusSplit& split,
                           const EvalOptions& options, JobContext* job) {
  const TokenStream tokens = limited(split.tokens, options.maxSymbols);
  const TokenStream mask = limitedMask(split, options.maxSymbols);
  if (const auto single =
          readAsSingleStream(model, tokens, mask, options, {options.temperature}, job)) {
    LossFigures figures =
        figuresOf(split, single->nats.front(), single->counted, single->positions);
    figures.readingStreams = 1;
    return figures;
  }
  const bool mc = options.mcSamples > 0;
  if (mc) requireMcMemory(model, tokens.size(), options);
  const bool wasTraining = model.is_training();
  model.train(mc);
  torch::NoGradGuard noGrad;
  const int64_t samples = mc ? options.mcSamples : 1;

  OneStreamOptions reading;
  reading.batch = options.batch;
  reading.bptt = options.bptt;
  reading.device = options.device;
  // Random states never meet: see OneStreamOptions::maxRounds.
  if (mc || options.beforeWindow) reading.maxRounds = 1;
  const auto initial = [&](int64_t batch) {
    std::vector<ModelState> states;
    for (int64_t k = 0; k < samples; ++k) states.push_back(model.initialState(batch));
    return states;
  };
  WindowScorer scorer = [&](const torch::Tensor& inputs, const torch::Tensor& targets,
                            std::vector<ModelState>& states) {
    if (options.beforeWindow) options.beforeWindow(inputs.size(1));
    torch::Tensor logp;
    if (!mc) {
      logp = tempered(model.forward(inputs, states[0]), options.temperature);
    } else {
      std::vector<torch::Tensor> each;
      for (auto& state : states)
        each.push_back(tempered(model.forward(inputs, state), options.temperature));
      logp = torch::logsumexp(torch::stack(each), 0) - std::log(static_cast<double>(samples));
    }
    return -logp.gather(2, targets.unsqueeze(2)).squeeze(2);
  };
  if (options.collective && options.collective->size() > 1) {
    scorer = splitAcrossRanks(std::move(scorer), *options.collective);
  }
  OneStreamTotals totals;
  try {
    totals = scoreAsOneStream(tokens, mask, reading, initial, scorer,
                              [&](double done) { reportTo(job, done, "scoring"); });
  } catch (...) {
    model.train(wasTraining);
    throw;
  }
  model.train(wasTraining);
  LossFigures figures = figuresOf(split, totals.nats, totals.counted, totals.positions);
  figures.readingStreams = options.batch;
  return figures;
}

LossFigures evaluateDynamic(LanguageModel& model, const CorpusSplit& split,
                            const CorpusSplit& train, const DynamicEvalConfig& config,
                            const EvalOptions& options, JobContext* job) {
  const bool wasTraining = model.is_training();
  model.eval();
  auto parameters = model.parameters();
  std::vector<torch::Tensor> trained;
  for (const auto& p : parameters) trained.push_back(p.detach().clone());
  const auto restore = [&] {
    {
      torch::NoGradGuard noGrad;
      for (size_t i = 0; i < parameters.size(); ++i) parameters[i].copy_(trained[i]);
    }
    model.zero_grad();
    model.train(wasTraining);
  };

  // RMS variant (Krause et al. 2017, as benkrause/dynamic-evaluation computes it): MS, the
  // root mean square of the training gradients per element, gathered in eval mode with the
  // gradient batch over the training set; decay rates MS / gsum, gsum the average over the
  // parameter tensors of each tensor's mean MS, clipped at 1/lambda.
  std::vector<torch::Tensor> rms;
  std::vector<torch::Tensor> decay;
  if (config.variant == DynamicEvalVariant::Rms) {
    rms = rmsGradientStatistics(model, train, config, options.device);
    decay = rmsDecayRates(rms, config.decay);
  }

  BatcherOptions batching;
  batching.batch = 1;
  batching.bptt = config.window;
  const TokenStream tokens = limited(split.tokens, options.maxSymbols);
  StreamBatcher batcher(tokens, batching, limitedMask(split, options.maxSymbols));
  auto state = model.initialState(1);
  double totalNats = 0.0;
  int64_t counted = 0;
  int64_t positions = 0;
  bool first = true;
  while (true) {
    const Window window = batcher.next();
    if (window.epochStart && !first) break;
    first = false;
    model.zero_grad();
    const auto logp =
        tempered(model.forward(windowTensor(window.inputs, window.steps, 1, options.device), state),
                 options.temperature);
    const auto targets = windowTensor(window.targets, window.steps, 1, options.device);
    const auto nll = -logp.gather(2, targets.unsqueeze(2)).squeeze(2);
    const auto [sum, count] = countedLoss(nll, window, options.device);
    totalNats += sum.item<double>();  // scored before the update: no peeking
    counted += count;
    positions += window.steps;
    (sum / static_cast<double>(std::max<int64_t>(count, 1))).backward();
    state.detach();
    torch::NoGradGuard noGrad;
    for (size_t i = 0; i < parameters.size(); ++i) {
      auto& p = parameters[i];
      if (!p.grad().defined()) continue;
      if (config.variant == DynamicEvalVariant::Sgd) {
        p.sub_(config.learningRate * p.grad());
      } else {
        // Both terms from the same theta: lambda * decrate * (theta0 - theta) - eta * g /
        // (MS + epsilon). decay[i] holds lambda * decrate.
        p.add_(decay[i] * (trained[i] - p) -
               config.learningRate * p.grad() / (rms[i] + config.epsilon));
      }
    }
    try {
      reportTo(job, batcher.epochProgress(), "adapting");
    } catch (...) {
      restore();  // a cancelled evaluation leaves the model as it found it
      throw;
    }
  }
  restore();
  return lossFigures(counted > 0 ? totalNats / static_cast<double>(counted) : 0.0, counted,
                     wordsScored(split, positions));
}

std::pair<double, LossFigures> tuneTemperature(LanguageModel& model, const CorpusSplit& valid,
                                               const EvalOptions& options, double low, double high,
                                               int64_t steps, JobContext* job) {
  std::vector<double> temperatures;
  for (int64_t k = 0; k < steps; ++k) {
    temperatures.push_back(steps > 1 ? low + (high - low) * static_cast<double>(k) /
                                                 static_cast<double>(steps - 1)
                                     : low);
  }
  std::pair<double, LossFigures> best{1.0, {}};
  bool any = false;
  const auto consider = [&](double temperature, const LossFigures& figures) {
    if (!any || figures.nats < best.second.nats) best = {temperature, figures};
    any = true;
  };
  // The single stream scores every temperature in one reading.
  const TokenStream tokens = limited(valid.tokens, options.maxSymbols);
  if (const auto single = readAsSingleStream(model, tokens, limitedMask(valid, options.maxSymbols),
                                             options, temperatures, job)) {
    for (size_t k = 0; k < temperatures.size(); ++k) {
      consider(temperatures[k],
               figuresOf(valid, single->nats[k], single->counted, single->positions));
    }
    return best;
  }
  // The single stream does not apply, or the streams are chosen: for every temperature.
  EvalOptions at = options;
  at.reading = HeldOutReading::Streams;
  for (size_t k = 0; k < temperatures.size(); ++k) {
    at.temperature = temperatures[k];
    consider(at.temperature, evaluateStatic(model, valid, at));
    reportTo(job, static_cast<double>(k + 1) / static_cast<double>(temperatures.size()),
             "tuning the temperature");
  }
  return best;
}

}  // namespace mrnn::engine
