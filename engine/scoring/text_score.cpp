#include "engine/scoring/text_score.h"

#include <torch/torch.h>

#include <algorithm>
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

namespace {

// Scores all[offset..] (all[..offset] is context) from one pass over `all`.
TextScore scoreFrom(LanguageModel& model, const Vocabulary& vocabulary,
                    const std::vector<int64_t>& all, size_t offset, JobContext* job, int64_t window,
                    int64_t alternatives, double from, double to) {
  if (alternatives < 0) throw std::invalid_argument("the number of alternatives must be >= 0");
  TextScore score;
  const size_t n = all.size();
  // Row r of the log-probabilities predicts all[r + 1]; only the rows that predict a symbol
  // of the text (not of the context) are read.
  const size_t firstRow = offset > 0 ? offset - 1 : 0;
  torch::Tensor picked;      // [R] log p of the actual symbol
  torch::Tensor ranks;       // [R] 1 + symbols strictly more probable
  torch::Tensor topValues;   // [R, k]
  torch::Tensor topIndices;  // [R, k]
  int64_t k = 0;
  if (n >= 2 && firstRow + 1 < n) {
    ModelState state = model.initialState(1);
    const std::vector<int64_t> inputs(all.begin(), all.end() - 1);
    const torch::Tensor logp = runStream(model, inputs, state, job, window, from, to)
                                   .slice(0, static_cast<int64_t>(firstRow));
    const auto targets = torch::tensor(
        std::vector<int64_t>(all.begin() + static_cast<std::ptrdiff_t>(firstRow) + 1, all.end()),
        torch::kLong);
    picked = logp.gather(1, targets.unsqueeze(1)).squeeze(1).contiguous();
    // Strictly greater: symbols tied with the actual one do not push it down.
    ranks = (logp > picked.unsqueeze(1)).sum(1).add(1).to(torch::kLong).contiguous();
    k = std::min(alternatives, logp.size(1));
    if (k > 0) {
      auto [values, indices] = logp.topk(k, 1, /*largest=*/true, /*sorted=*/true);
      topValues = values.exp().contiguous();
      topIndices = indices.to(torch::kLong).contiguous();
    }
  }

  const double log2e = 1.0 / std::log(2.0);
  for (size_t position = offset; position < n; ++position) {
    SymbolScore symbol;
    symbol.id = all[position];
    symbol.text = vocabulary.symbol(all[position]);
    symbol.predicted = position > 0;
    if (symbol.predicted) {
      const auto row = static_cast<int64_t>(position - 1 - firstRow);
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

}  // namespace

TextScore scoreText(LanguageModel& model, const Vocabulary& vocabulary, const std::string& text,
                    const std::string& context, JobContext* job, int64_t window,
                    int64_t alternatives) {
  const std::vector<int64_t> textIds = vocabulary.encode(text);
  const std::vector<int64_t> contextIds =
      context.empty() ? std::vector<int64_t>{} : vocabulary.encode(context);
  // With a context, its last symbol predicts the text's first; without, the first symbol
  // has no prediction and the score starts at the second.
  std::vector<int64_t> all = contextIds;
  all.insert(all.end(), textIds.begin(), textIds.end());
  return scoreFrom(model, vocabulary, all, contextIds.size(), job, window, alternatives, 0.0, 1.0);
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
  return scoreFrom(model, vocabulary, ids, 0, job, window, alternatives, from, to);
}

}  // namespace mrnn::engine
