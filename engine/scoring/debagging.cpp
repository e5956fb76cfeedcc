#include "engine/scoring/debagging.h"

#include <torch/torch.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/model_device.h"
#include "engine/models/eval_mode_guard.h"
#include "engine/models/language_model.h"
#include "engine/runtime/machine_resources.h"
#include "engine/scoring/model_stream.h"
#include "engine/scoring/text_score.h"

namespace mrnn::engine {
namespace {

bool isSpace(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i > 0 ? " " : "") + words[i];
  return out;
}

// The sequences as the columns of tokens [T, N] on `device`.
torch::Tensor columns(const std::vector<std::vector<int64_t>>& sequences,
                      const torch::Device& device) {
  const auto steps = static_cast<int64_t>(sequences.front().size());
  const auto count = static_cast<int64_t>(sequences.size());
  auto tokens = torch::empty({steps, count}, torch::kLong);
  auto access = tokens.accessor<int64_t, 2>();
  for (int64_t n = 0; n < count; ++n) {
    for (int64_t t = 0; t < steps; ++t) access[t][n] = sequences[static_cast<size_t>(n)][t];
  }
  return tokens.to(device);
}

// Row indices as a long tensor on `device`.
torch::Tensor indexOn(const std::vector<int64_t>& rows, const torch::Device& device) {
  return torch::tensor(rows, torch::kLong).to(device);
}

// A float64 [N] result read back as numbers, wherever it was computed.
std::vector<double> valuesOf(const torch::Tensor& logProb) {
  const auto cpu = logProb.to(torch::kCPU, torch::kFloat64).contiguous();
  return std::vector<double>(cpu.data_ptr<double>(), cpu.data_ptr<double>() + cpu.numel());
}

// Continues the rows of `state` (whose next-symbol log-probabilities are `last` [N, V]) with
// tokens [T, N]: the log-probability of each column, the state after it and its prediction.
struct Continued {
  torch::Tensor logProb;  // [N] float64, on the model's device
  ModelState state;
  torch::Tensor last;  // [N, V]
};

Continued continueWith(LanguageModel& model, ModelState state, const torch::Tensor& last,
                       const torch::Tensor& tokens) {
  const int64_t steps = tokens.size(0);
  auto total = last.gather(1, tokens[0].unsqueeze(1)).squeeze(1).to(torch::kFloat64);
  const auto logp = model.forward(tokens, state);
  if (steps > 1) {
    // Gather before widening: a word model's [T, N, V] stays float.
    const auto picked = logp.narrow(0, 0, steps - 1)
                            .gather(2, tokens.narrow(0, 1, steps - 1).unsqueeze(2))
                            .squeeze(2);
    total = total + picked.to(torch::kFloat64).sum(0);
  }
  return {total, std::move(state), logp[steps - 1]};
}

struct Setup {
  ModelState state;    // after the left context, batch 1
  torch::Tensor last;  // [1, V]: its prediction of the next symbol
  std::string before;  // what goes between the left context and the first word
  std::string after;   // between the last word and the right context, and the right context
};

std::vector<double> scoreExhaustive(LanguageModel& model, const Vocabulary& vocabulary,
                                    const Setup& setup,
                                    const std::vector<std::vector<std::string>>& orderings,
                                    int64_t batch, JobContext* job) {
  const torch::Device device = modelDevice(model);
  std::vector<double> scores;
  const auto total = static_cast<int64_t>(orderings.size());
  for (int64_t start = 0; start < total; start += batch) {
    const int64_t count = std::min(batch, total - start);
    std::vector<std::vector<int64_t>> sequences;
    for (int64_t n = start; n < start + count; ++n) {
      sequences.push_back(vocabulary.encode(
          setup.before + joined(orderings[static_cast<size_t>(n)]) + setup.after));
      if (sequences.back().size() != sequences.front().size()) {
        throw std::invalid_argument("the orderings of the bag encode to different lengths");
      }
    }
    const auto rows = torch::zeros({count}, torch::TensorOptions(torch::kLong).device(device));
    const auto result = continueWith(model, setup.state.rows(rows),
                                     setup.last.index_select(0, rows), columns(sequences, device));
    const auto values = valuesOf(result.logProb);
    scores.insert(scores.end(), values.begin(), values.end());
    if (job)
      job->report(static_cast<double>(start + count) / static_cast<double>(total), "orderings");
  }
  return scores;
}

struct Beam {
  std::vector<size_t> used;  // indices into the bag, in order
  double logProb = 0.0;
};

std::vector<RankedOrdering> beamSearch(LanguageModel& model, const Vocabulary& vocabulary,
                                       const Setup& setup, const std::vector<std::string>& bag,
                                       int64_t width, JobContext* job) {
  const torch::Device device = modelDevice(model);
  std::vector<Beam> beams{Beam{}};
  ModelState state = setup.state;
  torch::Tensor last = setup.last;
  for (size_t step = 0; step < bag.size(); ++step) {
    // Every beam extended by every distinct unused word, grouped by the piece's length so
    // each group runs as one batch.
    std::vector<Beam> candidates;
    struct Member {
      size_t candidate;
      int64_t parent;
      std::vector<int64_t> ids;
    };
    std::map<size_t, std::vector<Member>> groups;
    for (size_t b = 0; b < beams.size(); ++b) {
      std::set<std::string> tried;
      for (size_t w = 0; w < bag.size(); ++w) {
        const auto& used = beams[b].used;
        if (std::find(used.begin(), used.end(), w) != used.end() || !tried.insert(bag[w]).second)
          continue;
        auto ids = vocabulary.encode((step == 0 ? setup.before : " ") + bag[w]);
        if (ids.empty())
          throw std::invalid_argument("the word '" + bag[w] + "' encodes to nothing");
        Beam next = beams[b];
        next.used.push_back(w);
        groups[ids.size()].push_back({candidates.size(), static_cast<int64_t>(b), std::move(ids)});
        candidates.push_back(std::move(next));
      }
    }
    std::vector<ModelState> states;
    std::vector<torch::Tensor> lasts;
    std::vector<size_t> order;  // candidate index of each row of the concatenation
    for (const auto& group : groups) {
      const auto& members = group.second;
      std::vector<int64_t> rows;
      std::vector<std::vector<int64_t>> sequences;
      for (const auto& member : members) {
        rows.push_back(member.parent);
        sequences.push_back(member.ids);
        order.push_back(member.candidate);
      }
      const auto index = indexOn(rows, device);
      auto result = continueWith(model, state.rows(index), last.index_select(0, index),
                                 columns(sequences, device));
      const auto values = valuesOf(result.logProb);
      for (size_t r = 0; r < members.size(); ++r) {
        candidates[members[r].candidate].logProb += values[r];
      }
      states.push_back(std::move(result.state));
      lasts.push_back(result.last);
    }
    std::vector<size_t> rank(order.size());
    std::iota(rank.begin(), rank.end(), size_t{0});
    std::stable_sort(rank.begin(), rank.end(), [&](size_t a, size_t b) {
      return candidates[order[a]].logProb > candidates[order[b]].logProb;
    });
    rank.resize(std::min(rank.size(), static_cast<size_t>(width)));
    std::vector<int64_t> keep;
    std::vector<Beam> kept;
    for (const size_t r : rank) {
      keep.push_back(static_cast<int64_t>(r));
      kept.push_back(candidates[order[r]]);
    }
    const auto index = indexOn(keep, device);
    state = ModelState::concatenated(states).rows(index);
    last = torch::cat(lasts, 0).index_select(0, index);
    beams = std::move(kept);
    if (job)
      job->report(static_cast<double>(step + 1) / static_cast<double>(bag.size() + 1), "beam");
  }
  if (!setup.after.empty()) {
    const auto ids = vocabulary.encode(setup.after);
    if (!ids.empty()) {
      const auto result =
          continueWith(model, state, last,
                       columns(std::vector<std::vector<int64_t>>(beams.size(), ids), device));
      const auto values = valuesOf(result.logProb);
      for (size_t b = 0; b < beams.size(); ++b) beams[b].logProb += values[b];
    }
  }
  std::vector<RankedOrdering> out;
  for (const auto& beam : beams) {
    RankedOrdering ordering;
    for (const size_t w : beam.used) ordering.words.push_back(bag[w]);
    ordering.logProb = beam.logProb;
    out.push_back(std::move(ordering));
  }
  return out;
}

// A beam step holds every beam extended by every unused word, each with its state row (twice,
// while the kept rows are gathered) and its order: refused at once when that is more than the
// machine has, not after minutes of growing.
void requireBeamMemory(const Setup& setup, size_t words, int64_t width) {
  const double stateBytes = setup.state.bytes();
  double beams = 1.0;  // at most the orders the bag has, for a width wider than that
  for (size_t k = 0; k + 1 < words && beams < static_cast<double>(width); ++k) {
    beams *= static_cast<double>(words - k);
  }
  beams = std::min(beams, static_cast<double>(width));
  const double perCandidate = 2.0 * stateBytes + 16.0 * static_cast<double>(words) + 200.0;
  requireMemory(
      beams * static_cast<double>(words) * perCandidate,
      "debagging " + std::to_string(words) + " words with a beam of " + std::to_string(width),
      "Ask for a narrower beam");
}

}  // namespace

DebagResult debag(LanguageModel& model, const Vocabulary& vocabulary, const std::string& left,
                  const std::vector<std::string>& bag, const std::string& right,
                  const DebagOptions& options, JobContext* job) {
  if (bag.empty()) throw std::invalid_argument("debagging needs a bag of at least one word");
  if (left.empty()) {
    throw std::invalid_argument("debagging needs a left context: it predicts the first word");
  }
  if (options.beamWidth <= 0 || options.batch <= 0) {
    throw std::invalid_argument("the beam width and batch must be positive");
  }
  for (const auto& word : bag) {
    if (word.empty() || std::any_of(word.begin(), word.end(), isSpace)) {
      throw std::invalid_argument("bag words must be non-empty and without spaces: '" + word + "'");
    }
  }
  EvalModeGuard guard(model);
  Setup setup;
  setup.state = model.initialState(1);
  const auto leftIds = vocabulary.encode(left);
  setup.last = runStream(model, leftIds, setup.state, nullptr, 256, 0.0, 1.0)
                   .narrow(0, static_cast<int64_t>(leftIds.size()) - 1, 1)
                   .to(torch::kFloat);
  setup.before = isSpace(left.back()) ? "" : " ";
  if (!right.empty()) setup.after = (isSpace(right.front()) ? "" : " ") + right;

  DebagResult result;
  result.trueOrder = bag;
  result.trueLogProb = scoreExhaustive(model, vocabulary, setup, {bag}, 1, nullptr).front();
  if (static_cast<int64_t>(bag.size()) <= options.exhaustiveLimit) {
    std::vector<std::string> words = bag;
    std::sort(words.begin(), words.end());
    std::vector<std::vector<std::string>> orderings;
    do {
      orderings.push_back(words);
    } while (std::next_permutation(words.begin(), words.end()));
    const auto scores = scoreExhaustive(model, vocabulary, setup, orderings, options.batch, job);
    for (size_t i = 0; i < orderings.size(); ++i) {
      result.orderings.push_back({std::move(orderings[i]), scores[i]});
    }
  } else {
    result.exhaustive = false;
    requireBeamMemory(setup, bag.size(), options.beamWidth);
    result.orderings = beamSearch(model, vocabulary, setup, bag, options.beamWidth, job);
  }
  result.scored = static_cast<int64_t>(result.orderings.size());
  std::stable_sort(
      result.orderings.begin(), result.orderings.end(),
      [](const RankedOrdering& a, const RankedOrdering& b) { return a.logProb > b.logProb; });
  // The true order's rank; its own score comes from one full pass, so compare the listed
  // copy's score (same computation path) to avoid counting it above itself by rounding.
  const auto found = std::find_if(result.orderings.begin(), result.orderings.end(),
                                  [&](const RankedOrdering& o) { return o.words == bag; });
  if (found != result.orderings.end()) {
    result.trueRank =
        1 + std::count_if(result.orderings.begin(), result.orderings.end(),
                          [&](const RankedOrdering& o) { return o.logProb > found->logProb; });
  }
  return result;
}

}  // namespace mrnn::engine
