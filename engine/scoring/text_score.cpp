#include "engine/scoring/text_score.h"

#include <torch/torch.h>

#include <cmath>
#include <stdexcept>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/eval_mode_guard.h"

namespace mrnn::engine {

torch::Tensor runStream(LanguageModel& model, const std::vector<int64_t>& ids, ModelState& state,
                        JobContext* job, int64_t window, double from, double to) {
  if (window <= 0) throw std::invalid_argument("the scoring window must be positive");
  EvalModeGuard guard(model);
  const int64_t n = static_cast<int64_t>(ids.size());
  std::vector<torch::Tensor> parts;
  // Windows bound the memory of a long text; the state carries across them, so the result
  // equals one pass over the whole text.
  for (int64_t start = 0; start < n; start += window) {
    const int64_t steps = std::min(window, n - start);
    const auto tokens =
        torch::tensor(std::vector<int64_t>(ids.begin() + start, ids.begin() + start + steps),
                      torch::kLong)
            .view({steps, 1});
    parts.push_back(model.forward(tokens, state).select(1, 0).to(torch::kFloat64));
    if (job) {
      const double done = static_cast<double>(start + steps) / static_cast<double>(n);
      job->report(from + (to - from) * done, "scoring");
    }
  }
  if (parts.empty()) return torch::zeros({0, model.vocab()}, torch::kFloat64);
  return torch::cat(parts, 0);
}

std::vector<double> symbolLosses(LanguageModel& model, const std::vector<int64_t>& ids,
                                 JobContext* job, int64_t window, double from, double to) {
  if (ids.size() < 2) return {};
  ModelState state = model.initialState(1);
  const std::vector<int64_t> inputs(ids.begin(), ids.end() - 1);
  const auto logp = runStream(model, inputs, state, job, window, from, to);
  const auto targets =
      torch::tensor(std::vector<int64_t>(ids.begin() + 1, ids.end()), torch::kLong);
  const auto picked = -logp.gather(1, targets.unsqueeze(1)).squeeze(1).contiguous();
  const double* data = picked.data_ptr<double>();
  return std::vector<double>(data, data + picked.numel());
}

TextScore scoreText(LanguageModel& model, const Vocabulary& vocabulary, const std::string& text,
                    const std::string& context, JobContext* job, int64_t window) {
  const std::vector<int64_t> textIds = vocabulary.encode(text);
  const std::vector<int64_t> contextIds =
      context.empty() ? std::vector<int64_t>{} : vocabulary.encode(context);
  // With a context, its last symbol predicts the text's first; without, the first symbol
  // has no prediction and the score starts at the second.
  std::vector<int64_t> all = contextIds;
  all.insert(all.end(), textIds.begin(), textIds.end());
  const std::vector<double> losses = symbolLosses(model, all, job, window);
  const size_t offset = contextIds.size();  // losses[i] scores all[i + 1]

  TextScore score;
  const double log2e = 1.0 / std::log(2.0);
  for (size_t i = 0; i < textIds.size(); ++i) {
    SymbolScore symbol;
    symbol.id = textIds[i];
    symbol.text = vocabulary.symbol(textIds[i]);
    const size_t position = offset + i;  // index into `all`
    symbol.predicted = position > 0;
    if (symbol.predicted) {
      symbol.bits = losses[position - 1] * log2e;
      score.totalBits += symbol.bits;
      ++score.predictedSymbols;
    }
    score.symbols.push_back(std::move(symbol));
  }
  if (score.predictedSymbols > 0) {
    score.bitsPerSymbol = score.totalBits / static_cast<double>(score.predictedSymbols);
  }
  return score;
}

}  // namespace mrnn::engine
