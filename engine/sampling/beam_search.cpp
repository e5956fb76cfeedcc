#include "engine/sampling/beam_search.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/analysis/model_device.h"

namespace mrnn::engine {
namespace {

struct Candidate {
  double score;
  int64_t beam;
  int64_t id;
};

}  // namespace

BeamSearch::BeamSearch(LanguageModel& model, const Vocabulary& vocabulary,
                       const SamplingOptions& options, const CompletionBuilder& builder)
    : model_(model), vocabulary_(vocabulary), options_(options), builder_(builder) {}

GeneratedSymbol BeamSearch::makeSymbol(const Completion& parent, const float* logp, int64_t id) {
  GeneratedSymbol symbol;
  symbol.id = id;
  symbol.text = builder_.pieceFor(parent, id);
  symbol.logProbability = logp[id];
  symbol.probability = std::exp(symbol.logProbability);
  const int64_t count = std::min(options_.alternatives, vocabulary_.size());
  std::iota(order_.begin(), order_.end(), int64_t{0});
  std::partial_sort(order_.begin(), order_.begin() + count, order_.end(),
                    [logp](int64_t a, int64_t b) { return logp[a] > logp[b]; });
  for (int64_t i = 0; i < count; ++i) {
    const int64_t other = order_[i];
    symbol.alternatives.push_back({other, vocabulary_.symbol(other), std::exp(logp[other])});
  }
  return symbol;
}

std::vector<Completion> BeamSearch::run(const SamplingStart& start) {
  const int64_t vocab = vocabulary_.size();
  const int64_t width = options_.beamWidth;
  order_.resize(static_cast<size_t>(vocab));
  std::vector<Completion> beams{start.prefix};
  std::vector<Completion> finished;
  ModelState state;
  for (const auto& layer : start.state.layers) {
    CellState copy;
    for (const auto& part : layer.parts) copy.parts.push_back(part.clone());
    state.layers.push_back(std::move(copy));
  }
  const torch::Device device = modelDevice(model_);
  // Read on the CPU (`rows`); the state stays on the model's device.
  torch::Tensor logp = start.next.reshape({1, vocab}).to(torch::kCPU, torch::kFloat).contiguous();
  std::vector<Candidate> candidates;
  while (!beams.empty()) {
    if (static_cast<int64_t>(beams.front().symbols.size()) >= options_.maxLength) {
      for (auto& beam : beams) beam.stopReason = "length";
      finished.insert(finished.end(), beams.begin(), beams.end());
      break;
    }
    // The best `width` continuations of every beam hold the best `width` overall.
    candidates.clear();
    const float* rows = logp.data_ptr<float>();
    for (int64_t b = 0; b < static_cast<int64_t>(beams.size()); ++b) {
      const float* row = rows + b * vocab;
      const int64_t count = std::min(width, vocab);
      std::iota(order_.begin(), order_.end(), int64_t{0});
      std::partial_sort(order_.begin(), order_.begin() + count, order_.end(),
                        [row](int64_t x, int64_t y) { return row[x] > row[y]; });
      for (int64_t i = 0; i < count; ++i) {
        candidates.push_back({beams[b].logProbability + row[order_[i]], b, order_[i]});
      }
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& x, const Candidate& y) { return x.score > y.score; });
    if (static_cast<int64_t>(candidates.size()) > width) candidates.resize(width);

    std::vector<Completion> next;
    std::vector<int64_t> parents, ids;
    for (const auto& candidate : candidates) {
      Completion beam = beams[candidate.beam];
      GeneratedSymbol symbol = makeSymbol(beam, rows + candidate.beam * vocab, candidate.id);
      if (builder_.append(beam, std::move(symbol))) {
        beam.stopReason = "stop string";
        finished.push_back(std::move(beam));
      } else {
        next.push_back(std::move(beam));
        parents.push_back(candidate.beam);
        ids.push_back(candidate.id);
      }
    }
    beams = std::move(next);
    if (beams.empty() || static_cast<int64_t>(beams.front().symbols.size()) >= options_.maxLength) {
      continue;  // no step needed: the loop head finishes them
    }
    // Reorder the batched state to the surviving beams' parents and advance all at once.
    const auto parentIndex = torch::tensor(parents, torch::kLong).to(device);
    for (auto& layer : state.layers) {
      for (auto& part : layer.parts) part = part.index_select(0, parentIndex);
    }
    const auto tokens = torch::tensor(ids, torch::kLong).view({1, -1}).to(device);
    logp = model_.forward(tokens, state)
               .reshape({static_cast<int64_t>(beams.size()), vocab})
               .to(torch::kCPU, torch::kFloat)
               .contiguous();
  }
  std::stable_sort(finished.begin(), finished.end(), [](const Completion& x, const Completion& y) {
    return x.logProbability > y.logProbability;
  });
  if (static_cast<int64_t>(finished.size()) > width) finished.resize(width);
  return finished;
}

}  // namespace mrnn::engine
