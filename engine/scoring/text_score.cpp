#include "engine/scoring/text_score.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "engine/analysis/model_device.h"
#include "engine/inference/single_stream_model.h"
#include "engine/models/eval_mode_guard.h"
#include "engine/models/language_model.h"
#include "engine/runtime/job_context.h"
#include "engine/scoring/model_stream.h"

namespace mrnn::engine {

namespace {

// Whether the frozen single-stream copy can read for LanguageModel::forward here: a float32
// model on the CPU with a distribution over symbols. It reads one symbol at a time with raw
// kernels, several times faster than batch-1 windows through LibTorch, to the same figures.
bool readsAsSingleStream(const LanguageModel& model) {
  return model.config().output.kind != OutputKind::Linear && SingleStreamModel::supports(model);
}

// Runs `ids` through the model from `state` one window at a time, handing `use` each window's
// first position and its log-probabilities [steps, V] (float64, on the model's device) of the
// symbol after each. No gradients; memory is one window's, whatever the length.
template <typename Use>
void forEachWindow(LanguageModel& model, const std::vector<int64_t>& ids, ModelState& state,
                   JobContext* job, int64_t window, double from, double to, Use&& use) {
  if (window <= 0) throw std::invalid_argument("the scoring window must be positive");
  torch::NoGradGuard noGrad;
  EvalModeGuard guard(model);
  const torch::Device device = modelDevice(model);
  const int64_t n = static_cast<int64_t>(ids.size());
  std::unique_ptr<SingleStreamModel> frozen;
  if (readsAsSingleStream(model)) {
    frozen = std::make_unique<SingleStreamModel>(model);
    frozen->importState(state);
  }
  for (int64_t start = 0; start < n; start += window) {
    const int64_t steps = std::min(window, n - start);
    if (frozen) {
      auto logp = torch::empty({steps, model.vocab()}, torch::kFloat);
      float* rows = logp.data_ptr<float>();
      for (int64_t t = 0; t < steps; ++t) {
        const float* row = frozen->step(ids[static_cast<size_t>(start + t)]);
        std::copy(row, row + model.vocab(), rows + t * model.vocab());
      }
      use(start, logp.to(torch::kFloat64));
    } else {
      const auto tokens =
          torch::tensor(std::vector<int64_t>(ids.begin() + start, ids.begin() + start + steps),
                        torch::kLong)
              .view({steps, 1})
              .to(device);
      use(start, model.forward(tokens, state).select(1, 0).to(torch::kFloat64));
    }
    const double done = static_cast<double>(start + steps) / static_cast<double>(n);
    reportTo(job, from + (to - from) * done, "scoring");
  }
  if (frozen) state = frozen->exportState();
}

}  // namespace

torch::Tensor runStream(LanguageModel& model, const std::vector<int64_t>& ids, ModelState& state,
                        JobContext* job, int64_t window, double from, double to) {
  std::vector<torch::Tensor> parts;
  forEachWindow(model, ids, state, job, window, from, to,
                [&](int64_t, const torch::Tensor& logp) { parts.push_back(logp); });
  if (parts.empty()) {
    return torch::zeros({0, model.vocab()},
                        torch::TensorOptions(torch::kFloat64).device(modelDevice(model)));
  }
  return torch::cat(parts, 0);
}

std::vector<double> symbolLosses(LanguageModel& model, const std::vector<int64_t>& ids,
                                 JobContext* job, int64_t window, double from, double to) {
  if (ids.size() < 2) return {};
  ModelState state = model.initialState(1);
  const std::vector<int64_t> inputs(ids.begin(), ids.end() - 1);
  std::vector<double> losses;
  losses.reserve(inputs.size());
  forEachWindow(
      model, inputs, state, job, window, from, to, [&](int64_t start, const torch::Tensor& logp) {
        const auto targets =
            torch::tensor(std::vector<int64_t>(ids.begin() + start + 1,
                                               ids.begin() + start + 1 + logp.size(0)),
                          torch::kLong)
                .to(logp.device());
        const auto picked = -logp.gather(1, targets.unsqueeze(1)).squeeze(1).cpu().contiguous();
        const double* data = picked.data_ptr<double>();
        losses.insert(losses.end(), data, data + picked.numel());
      });
  return losses;
}

namespace {

// Scores all[offset..] (all[..offset] is context) in one pass over `all`, window by window:
// each symbol goes to `sink` as soon as its window is read, so only a window's
// log-probabilities are ever held.
void scoreFrom(LanguageModel& model, const Vocabulary& vocabulary, const std::vector<int64_t>& all,
               size_t offset, JobContext* job, int64_t window, int64_t alternatives, double from,
               double to, TextScore& score, const SymbolScoreSink& sink) {
  if (alternatives < 0) throw std::invalid_argument("the number of alternatives must be >= 0");
  const double log2e = 1.0 / std::log(2.0);
  const auto emit = [&](SymbolScore&& symbol) {
    if (symbol.predicted) {
      score.totalBits += symbol.bits;
      ++score.predictedSymbols;
    }
    if (sink) {
      sink(std::move(symbol));
    } else {
      score.symbols.push_back(std::move(symbol));
    }
  };
  const size_t n = all.size();
  if (offset == 0 && n > 0) {
    SymbolScore first;  // nothing came before it: no prediction
    first.id = all[0];
    first.text = vocabulary.symbol(all[0]);
    first.predicted = false;
    emit(std::move(first));
  }
  if (n >= 2) {
    const int64_t k = std::min<int64_t>(alternatives, vocabulary.size());
    ModelState state = model.initialState(1);
    const std::vector<int64_t> inputs(all.begin(), all.end() - 1);
    // Row r of a window's log-probabilities predicts all[start + r + 1]; rows that predict
    // a symbol of the context are skipped.
    forEachWindow(
        model, inputs, state, job, window, from, to,
        [&](int64_t start, const torch::Tensor& windowLogp) {
          const int64_t skip = std::max<int64_t>(0, static_cast<int64_t>(offset) - 1 - start);
          if (skip >= windowLogp.size(0)) return;
          const torch::Tensor logp = windowLogp.slice(0, skip);
          const int64_t first = start + skip + 1;  // the position row 0 predicts
          const auto targets =
              torch::tensor(
                  std::vector<int64_t>(all.begin() + first, all.begin() + first + logp.size(0)),
                  torch::kLong)
                  .to(logp.device());
          const auto onDevice = logp.gather(1, targets.unsqueeze(1)).squeeze(1);
          // Strictly greater: symbols tied with the actual one do not push it down. Computed
          // where the model ran; only these per-symbol figures come back to the CPU.
          const auto ranks = (logp > onDevice.unsqueeze(1))
                                 .sum(1)
                                 .add(1)
                                 .to(torch::kCPU, torch::kLong)
                                 .contiguous();
          const auto picked = onDevice.cpu().contiguous();
          torch::Tensor topValues, topIndices;
          if (k > 0) {
            auto [values, indices] = logp.topk(k, 1, /*largest=*/true, /*sorted=*/true);
            topValues = values.exp().cpu().contiguous();
            topIndices = indices.to(torch::kCPU, torch::kLong).contiguous();
          }
          for (int64_t row = 0; row < logp.size(0); ++row) {
            SymbolScore symbol;
            symbol.id = all[static_cast<size_t>(first + row)];
            symbol.text = vocabulary.symbol(symbol.id);
            const double logProbability = picked.data_ptr<double>()[row];
            symbol.bits = -logProbability * log2e;
            symbol.probability = std::exp(logProbability);
            symbol.rank = ranks.data_ptr<int64_t>()[row];
            for (int64_t j = 0; j < k; ++j) {
              SymbolScore::Alternative alternative;
              alternative.id = topIndices.data_ptr<int64_t>()[row * k + j];
              alternative.text = vocabulary.symbol(alternative.id);
              alternative.probability = topValues.data_ptr<double>()[row * k + j];
              symbol.alternatives.push_back(std::move(alternative));
            }
            emit(std::move(symbol));
          }
        });
  }
  if (score.predictedSymbols > 0) {
    score.bitsPerSymbol = score.totalBits / static_cast<double>(score.predictedSymbols);
  }
}

std::vector<int64_t> contextAndText(const Vocabulary& vocabulary, const std::string& text,
                                    const std::string& context, size_t& offset) {
  // With a context, its last symbol predicts the text's first; without, the first symbol
  // has no prediction and the score starts at the second.
  std::vector<int64_t> all = context.empty() ? std::vector<int64_t>{} : vocabulary.encode(context);
  offset = all.size();
  const std::vector<int64_t> textIds = vocabulary.encode(text);
  all.insert(all.end(), textIds.begin(), textIds.end());
  return all;
}

}  // namespace

TextScore scoreText(LanguageModel& model, const Vocabulary& vocabulary, const std::string& text,
                    const std::string& context, JobContext* job, int64_t window,
                    int64_t alternatives) {
  size_t offset = 0;
  const auto all = contextAndText(vocabulary, text, context, offset);
  TextScore score;
  scoreFrom(model, vocabulary, all, offset, job, window, alternatives, 0.0, 1.0, score, {});
  return score;
}

TextScore scoreTextStreamed(LanguageModel& model, const Vocabulary& vocabulary,
                            const std::string& text, const std::string& context,
                            const SymbolScoreSink& sink, JobContext* job, int64_t window,
                            int64_t alternatives) {
  size_t offset = 0;
  const auto all = contextAndText(vocabulary, text, context, offset);
  TextScore score;
  scoreFrom(model, vocabulary, all, offset, job, window, alternatives, 0.0, 1.0, score, sink);
  return score;
}

TextScore scoreSymbols(LanguageModel& model, const Vocabulary& vocabulary,
                       const std::vector<int64_t>& ids, JobContext* job, int64_t window,
                       int64_t alternatives, double from, double to) {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= vocabulary.size()) {
      throw std::invalid_argument("symbol " + std::to_string(i + 1) + " has id " +
                                  std::to_string(ids[i]) + ", outside the vocabulary of " +
                                  std::to_string(vocabulary.size()) + " symbols");
    }
  }
  TextScore score;
  scoreFrom(model, vocabulary, ids, 0, job, window, alternatives, from, to, score, {});
  return score;
}

}  // namespace mrnn::engine
