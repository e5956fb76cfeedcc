#include "engine/scoring/surprisal_recovery.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "engine/analysis/analysis_job.h"
#include "engine/models/language_model.h"
#include "engine/scoring/text_score.h"

namespace mrnn::engine {
namespace {

double mean(const std::vector<double>& row, const std::vector<int64_t>& at, int64_t shift) {
  double sum = 0.0;
  int64_t count = 0;
  for (const int64_t p : at) {
    if (p + shift < static_cast<int64_t>(row.size())) {
      sum += row[static_cast<size_t>(p + shift)];
      ++count;
    }
  }
  return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

}  // namespace

RecoveryTable surprisalRecovery(const std::vector<std::vector<double>>& losses,
                                const RecoveryOptions& options) {
  if (losses.empty()) throw std::invalid_argument("surprisal recovery needs at least one model");
  const size_t n = losses.front().size();
  if (n == 0) throw std::invalid_argument("surprisal recovery needs a text of 2 symbols or more");
  for (const auto& row : losses) {
    if (row.size() != n) {
      throw std::invalid_argument("the models scored different numbers of symbols (" +
                                  std::to_string(n) + " and " + std::to_string(row.size()) + ")");
    }
  }
  if (!(options.topFraction > 0.0 && options.topFraction <= 1.0)) {
    throw std::invalid_argument("the surprising fraction must be in (0, 1], got " +
                                std::to_string(options.topFraction));
  }
  if (options.offsets < 0) throw std::invalid_argument("the number of offsets must be >= 0");

  RecoveryTable table;
  table.topFraction = options.topFraction;
  table.offsets = options.offsets;
  table.positions = static_cast<int64_t>(n);

  // Surprise is judged by the models' average, so every model is measured on the same set.
  std::vector<double> average(n, 0.0);
  for (const auto& row : losses) {
    for (size_t t = 0; t < n; ++t) average[t] += row[t] / static_cast<double>(losses.size());
  }
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return average[static_cast<size_t>(a)] > average[static_cast<size_t>(b)];
  });
  const auto size = std::max<int64_t>(
      1, static_cast<int64_t>(std::llround(options.topFraction * static_cast<double>(n))));
  table.surprisingPositions.assign(order.begin(), order.begin() + size);
  std::sort(table.surprisingPositions.begin(), table.surprisingPositions.end());
  table.surprising = size;

  for (int64_t k = 1; k <= options.offsets; ++k) {
    int64_t count = 0;
    for (const int64_t p : table.surprisingPositions) count += p + k < table.positions ? 1 : 0;
    table.offsetCounts.push_back(count);
  }
  for (const auto& row : losses) {
    table.overallMean.push_back(std::accumulate(row.begin(), row.end(), 0.0) /
                                static_cast<double>(n));
    table.surprisingMean.push_back(mean(row, table.surprisingPositions, 0));
    std::vector<double> after;
    for (int64_t k = 1; k <= options.offsets; ++k) {
      after.push_back(mean(row, table.surprisingPositions, k));
    }
    table.offsetMean.push_back(std::move(after));
  }
  return table;
}

RecoveryTable surprisalRecovery(const std::vector<LanguageModel*>& models,
                                const std::vector<const Vocabulary*>& vocabularies,
                                const std::vector<int64_t>& ids, const RecoveryOptions& options,
                                JobContext* job) {
  if (models.empty() || models.size() != vocabularies.size()) {
    throw std::invalid_argument("surprisal recovery needs one vocabulary per model");
  }
  for (size_t m = 1; m < vocabularies.size(); ++m) {
    if (vocabularies[m]->fingerprint() != vocabularies[0]->fingerprint()) {
      throw std::invalid_argument("model " + std::to_string(m + 1) +
                                  " has another vocabulary than model 1; surprisal recovery " +
                                  "compares models on the same symbols, so they must share one");
    }
  }
  std::vector<std::vector<double>> losses;
  const double share = 1.0 / static_cast<double>(models.size());
  for (size_t m = 0; m < models.size(); ++m) {
    const double from = share * static_cast<double>(m);
    losses.push_back(symbolLosses(*models[m], ids, job, 256, from, from + share));
  }
  return surprisalRecovery(losses, options);
}

}  // namespace mrnn::engine
