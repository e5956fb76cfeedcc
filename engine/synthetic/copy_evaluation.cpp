#include "engine/synthetic/copy_evaluation.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/analysis/analysis_job.h"
#include "engine/data/reverse_copy_task.h"
#include "engine/synthetic/model_copy_predictor.h"

namespace mrnn::engine {
namespace {

void checkOptions(const CopyEvalOptions& options, int64_t vocab) {
  if (options.length < 1 || options.examples < 1 || options.batch < 1)
    throw std::invalid_argument(
        "reverse copy: length, examples and batch must be at least 1 (got " +
        std::to_string(options.length) + ", " + std::to_string(options.examples) + ", " +
        std::to_string(options.batch) + ")");
  if (vocab < 3)
    throw std::invalid_argument("reverse copy: a predictor over " + std::to_string(vocab) +
                                " symbols has no room for tokens, the marker and <eos>");
}

}  // namespace

CopyEvaluation evaluateReverseCopy(CopyPredictor& predictor, const CopyEvalOptions& options,
                                   JobContext* job) {
  const int64_t vocab = predictor.vocab();
  checkOptions(options, vocab);
  CopyTaskConfig config;
  config.vocabulary = vocab - 2;
  config.length = options.length;
  config.seed = options.seed;
  const ReverseCopyTask task(config);
  const int64_t length = options.length;
  const int64_t examples = options.examples;
  const std::vector<int64_t> inputs = task.drawInputs(CopyStream::Fresh, examples);

  const int64_t batch = std::min(options.batch, examples);
  const int64_t rounds = (examples + batch - 1) / batch;
  const int64_t steps = 2 * length + 2;
  std::vector<double> nats(static_cast<size_t>(length), 0.0);
  std::vector<int64_t> hits(static_cast<size_t>(length), 0);
  int64_t exact = 0;
  predictor.reset(batch);
  for (int64_t round = 0; round < rounds; ++round) {
    // Rows: <eos>, x1 .. xL, <go>, xL .. x1 (the example's <eos> opens the next round). The
    // prediction after row L + k is output position k, whose target is x(L + 1 - k).
    std::vector<int64_t> window(static_cast<size_t>(steps * batch));
    std::vector<int64_t> targets(static_cast<size_t>(length * batch));
    const int64_t real = std::min(batch, examples - round * batch);
    for (int64_t c = 0; c < batch; ++c) {
      // Columns past the last example repeat one of this round's; their results are dropped.
      const int64_t example = round * batch + std::min(c, real - 1);
      const int64_t* x = inputs.data() + example * length;
      auto at = [&](int64_t row) -> int64_t& {
        return window[static_cast<size_t>(row * batch + c)];
      };
      at(0) = task.eosId();
      for (int64_t i = 0; i < length; ++i) {
        at(1 + i) = x[i];
        at(length + 2 + i) = x[length - 1 - i];
      }
      at(length + 1) = task.markerId();
      for (int64_t k = 1; k <= length; ++k)
        targets[static_cast<size_t>((k - 1) * batch + c)] = x[length - k];
    }
    const auto logp = predictor.read(torch::tensor(window, torch::kLong).view({steps, batch}));
    if (logp.dim() != 3 || logp.size(0) != steps || logp.size(1) != batch || logp.size(2) != vocab)
      throw std::runtime_error("reverse copy: the predictor returned the wrong shape");
    // Read element by element below: on the CPU, wherever the predictor computed it.
    const auto copied = logp.slice(0, length + 1, 2 * length + 1).to(torch::kCPU, torch::kFloat64);
    const auto target = torch::tensor(targets, torch::kLong).view({length, batch});
    const auto loss = (-copied.gather(2, target.unsqueeze(2)).squeeze(2)).contiguous();
    const auto right = (copied.argmax(2) == target).contiguous();
    const auto lossAt = loss.accessor<double, 2>();
    const auto rightAt = right.accessor<bool, 2>();
    for (int64_t c = 0; c < real; ++c) {
      bool all = true;
      for (int64_t k = 0; k < length; ++k) {
        nats[static_cast<size_t>(k)] += lossAt[k][c];
        hits[static_cast<size_t>(k)] += rightAt[k][c] ? 1 : 0;
        all = all && rightAt[k][c];
      }
      exact += all ? 1 : 0;
    }
    if (job) job->report(static_cast<double>(round + 1) / static_cast<double>(rounds), "copying");
  }

  CopyEvaluation result;
  result.tokens = config.vocabulary;
  result.length = length;
  result.examples = examples;
  result.seed = options.seed;
  const double n = static_cast<double>(examples);
  const double log2e = 1.0 / std::log(2.0);
  double totalNats = 0.0;
  int64_t totalHits = 0;
  for (int64_t k = 0; k < length; ++k) {
    result.positionBits.push_back(nats[static_cast<size_t>(k)] * log2e / n);
    result.positionAccuracy.push_back(static_cast<double>(hits[static_cast<size_t>(k)]) / n);
    totalNats += nats[static_cast<size_t>(k)];
    totalHits += hits[static_cast<size_t>(k)];
  }
  const double copiedTokens = n * static_cast<double>(length);
  result.bitsPerToken = totalNats * log2e / copiedTokens;
  result.tokenAccuracy = static_cast<double>(totalHits) / copiedTokens;
  result.exactFraction = static_cast<double>(exact) / n;
  return result;
}

CopyEvaluation evaluateReverseCopy(LanguageModel& model, const Vocabulary& vocabulary,
                                   const CopyEvalOptions& options, JobContext* job) {
  const int64_t tokens = ReverseCopyTask::tokensOf(vocabulary);
  if (tokens < 0)
    throw std::invalid_argument(
        "the model's vocabulary (" + std::to_string(vocabulary.size()) +
        " symbols) is not a reverse copy vocabulary (t0 .. t(V-1), <go>, <eos>); was it "
        "trained with data.synthetic: reverse_copy?");
  if (model.vocab() != vocabulary.size())
    throw std::invalid_argument("the model predicts " + std::to_string(model.vocab()) +
                                " symbols, its vocabulary has " +
                                std::to_string(vocabulary.size()));
  ModelCopyPredictor predictor(model);
  return evaluateReverseCopy(predictor, options, job);
}

}  // namespace mrnn::engine
