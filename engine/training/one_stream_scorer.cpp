#include "engine/training/one_stream_scorer.h"

#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mrnn::engine {
namespace {

using States = std::vector<ModelState>;

// The rows `index` of every state part (batch is dim 0 of every part).
States selectRows(const States& states, const torch::Tensor& index) {
  States out = states;
  for (auto& sample : out)
    for (auto& layer : sample.layers)
      for (auto& part : layer.parts) part = part.index_select(0, index);
  return out;
}

// Writes `rows` (one row per entry of `index`) into those rows of `into`.
void writeRows(States& into, const torch::Tensor& index, const States& rows) {
  for (size_t s = 0; s < into.size(); ++s)
    for (size_t l = 0; l < into[s].layers.size(); ++l)
      for (size_t p = 0; p < into[s].layers[l].parts.size(); ++p)
        into[s].layers[l].parts[p].index_copy_(0, index, rows[s].layers[l].parts[p]);
}

States cloned(const States& states) {
  States out = states;
  for (auto& sample : out)
    for (auto& layer : sample.layers)
      for (auto& part : layer.parts) part = part.detach().clone();
  return out;
}

// Per row: the largest |a - b| over every part of every sample, [b] on the CPU.
std::vector<double> rowDistance(const States& a, const States& b) {
  torch::Tensor worst;
  for (size_t s = 0; s < a.size(); ++s)
    for (size_t l = 0; l < a[s].layers.size(); ++l)
      for (size_t p = 0; p < a[s].layers[l].parts.size(); ++p) {
        const auto d = (a[s].layers[l].parts[p] - b[s].layers[l].parts[p])
                           .abs()
                           .reshape({a[s].layers[l].parts[p].size(0), -1})
                           .amax(1);
        worst = worst.defined() ? torch::maximum(worst, d) : d;
      }
  const auto cpu = worst.to(torch::kDouble).cpu().contiguous();
  return std::vector<double>(cpu.data_ptr<double>(), cpu.data_ptr<double>() + cpu.numel());
}

int64_t stateBytes(const States& states) {
  int64_t bytes = 0;
  for (const auto& sample : states)
    for (const auto& layer : sample.layers)
      for (const auto& part : layer.parts)
        bytes += part.numel() / std::max<int64_t>(1, part.size(0)) *
                 static_cast<int64_t>(part.element_size());
  return bytes;  // per stream
}

// Cuts the text into streams and windows and keeps each window's score per stream.
class Streams {
 public:
  Streams(const TokenStream& tokens, const TokenStream& mask, const OneStreamOptions& options)
      : tokens_(tokens), mask_(mask), options_(options) {
    const int64_t targets = tokens.size() - 1;
    batch_ = std::max<int64_t>(1, std::min(options.batch, targets));
    length_ = targets / batch_;
    windows_ = (length_ + options.bptt - 1) / options.bptt;
    nats_.assign(static_cast<size_t>(batch_ * windows_), 0.0);
    counted_.assign(static_cast<size_t>(batch_ * windows_), 0);
  }

  int64_t batch() const { return batch_; }
  int64_t length() const { return length_; }
  int64_t windows() const { return windows_; }
  int64_t remainderStart() const { return batch_ * length_; }

  // Reads window `w` of `streams` (their state in `states`), keeps each stream's score.
  void read(int64_t w, const std::vector<int64_t>& streams, States& states,
            const WindowScorer& scorer) {
    const int64_t offset = w * options_.bptt;
    const int64_t steps = std::min(options_.bptt, length_ - offset);
    std::vector<int64_t> starts;
    for (const int64_t b : streams) starts.push_back(b * length_ + offset);
    const auto [nats, counted] = score(starts, steps, states, scorer);
    for (size_t i = 0; i < streams.size(); ++i) {
      const auto cell = static_cast<size_t>(streams[i] * windows_ + w);
      nats_[cell] = nats[i];
      counted_[cell] = counted[i];
    }
  }

  // Scores `steps` targets from each position in `starts` (inputs tokens[start + t], targets
  // tokens[start + t + 1]); returns the nats and the counted targets of each.
  std::pair<std::vector<double>, std::vector<int64_t>> score(const std::vector<int64_t>& starts,
                                                             int64_t steps, States& states,
                                                             const WindowScorer& scorer) const {
    const auto b = static_cast<int64_t>(starts.size());
    std::vector<int64_t> inputs(static_cast<size_t>(steps * b));
    std::vector<int64_t> targets(static_cast<size_t>(steps * b));
    std::vector<float> keep;
    std::vector<int64_t> counted(static_cast<size_t>(b), steps);
    std::vector<int64_t> row(static_cast<size_t>(steps + 1));
    if (mask_.size() > 0) keep.resize(static_cast<size_t>(steps * b));
    for (int64_t i = 0; i < b; ++i) {
      tokens_.copy(starts[static_cast<size_t>(i)], steps + 1, row.data());
      for (int64_t t = 0; t < steps; ++t) {
        inputs[static_cast<size_t>(t * b + i)] = row[static_cast<size_t>(t)];
        targets[static_cast<size_t>(t * b + i)] = row[static_cast<size_t>(t + 1)];
      }
      if (mask_.size() > 0) {
        // The mask belongs to the targets: token position start + 1 + t.
        mask_.copy(starts[static_cast<size_t>(i)] + 1, steps, row.data());
        int64_t n = 0;
        for (int64_t t = 0; t < steps; ++t) {
          const bool on = row[static_cast<size_t>(t)] != 0;
          keep[static_cast<size_t>(t * b + i)] = on ? 1.0f : 0.0f;
          n += on ? 1 : 0;
        }
        counted[static_cast<size_t>(i)] = n;
      }
    }
    const auto asTensor = [&](std::vector<int64_t>& values) {
      return torch::from_blob(values.data(), {steps, b}, torch::kLong).clone().to(options_.device);
    };
    auto nll = scorer(asTensor(inputs), asTensor(targets), states);
    if (!keep.empty()) {
      // Selected, not multiplied by 0: an infinite loss on an unscored target stays out.
      const auto on =
          torch::from_blob(keep.data(), {steps, b}, torch::kFloat).clone().to(nll.device()) > 0.5f;
      nll = torch::where(on, nll, torch::zeros_like(nll));
    }
    const auto sums = nll.to(torch::kDouble).sum(0).cpu().contiguous();
    return {std::vector<double>(sums.data_ptr<double>(), sums.data_ptr<double>() + b), counted};
  }

  OneStreamTotals totals() const {
    OneStreamTotals out;
    for (const double n : nats_) out.nats += n;
    for (const int64_t c : counted_) out.counted += c;
    out.positions = batch_ * length_;
    return out;
  }

 private:
  TokenStream tokens_;
  TokenStream mask_;
  OneStreamOptions options_;
  int64_t batch_ = 1;
  int64_t length_ = 0;
  int64_t windows_ = 0;
  std::vector<double> nats_;      // [stream][window]
  std::vector<int64_t> counted_;  // [stream][window]
};

torch::Tensor indexTensor(const std::vector<int64_t>& rows, const torch::Device& device) {
  return torch::tensor(rows, torch::kLong).to(device);
}

}  // namespace

OneStreamTotals scoreAsOneStream(const TokenStream& tokens, const TokenStream& targetMask,
                                 const OneStreamOptions& options, const InitialStates& initial,
                                 const WindowScorer& scorer,
                                 const std::function<void(double)>& progress) {
  if (tokens.size() < 2)
    throw std::invalid_argument("scoring needs at least 2 symbols, the text has " +
                                std::to_string(tokens.size()));
  if (options.batch < 1 || options.bptt < 1)
    throw std::invalid_argument("scoring: batch and bptt must be at least 1");
  if (targetMask.size() > 0 && targetMask.size() != tokens.size())
    throw std::invalid_argument("scoring: the target mask has " +
                                std::to_string(targetMask.size()) + " entries for " +
                                std::to_string(tokens.size()) + " symbols");
  const auto say = [&](double fraction) {
    if (progress) progress(std::min(1.0, fraction));
  };

  Streams streams(tokens, targetMask, options);
  const int64_t B = streams.batch();
  const int64_t W = streams.windows();
  std::vector<int64_t> all(static_cast<size_t>(B));
  for (int64_t b = 0; b < B; ++b) all[static_cast<size_t>(b)] = b;

  // First pass: every stream from a zero state; the boundary states it passes are kept for
  // as many windows as the memory allows.
  States state = initial(B);
  const int64_t perWindow = std::max<int64_t>(1, stateBytes(state) * B);
  const int64_t kept =
      std::min<int64_t>(W, std::max<int64_t>(1, options.boundaryMemoryBytes / perWindow));
  std::vector<States> boundary;
  const double firstShare = B > 1 ? 0.9 : 1.0;
  for (int64_t w = 0; w < W; ++w) {
    streams.read(w, all, state, scorer);
    for (auto& sample : state) sample.detach();
    if (w < kept) boundary.push_back(cloned(state));
    say(firstShare * static_cast<double>(w + 1) / static_cast<double>(W));
  }
  States ends = cloned(state);

  // Rounds: re-read each stream whose start state changed, from its predecessor's end.
  // The first round re-reads every stream at once, from its predecessor's first-pass end, for
  // up to kSpeculate windows: a model that forgets meets its earlier readings there and the
  // work is done. A stream that has not met its earlier reading by then started from a state
  // that may change again (its predecessor's), so it is left pending; its first windows now
  // hold the speculative reading and its later ones the first pass, which a later reading may
  // only meet from window kSpeculate on (mergeFrom). Later rounds go in order, one stream each,
  // from a final state: no work is spent on a start that will change, and the whole costs at
  // most the first pass, the speculative windows and one one-stream reading.
  constexpr int64_t kSpeculate = 8;
  const int64_t speculateWindows = std::min(kSpeculate, kept);
  int64_t rereadSteps = 0;
  std::vector<char> pending(static_cast<size_t>(B), 0);
  std::vector<int64_t> mergeFrom(static_cast<size_t>(B), 0);
  for (int64_t b = 1; b < B; ++b) pending[static_cast<size_t>(b)] = 1;
  int rounds = 0;
  while (std::find(pending.begin(), pending.end(), 1) != pending.end() &&
         (options.maxRounds < 0 || rounds < options.maxRounds)) {
    ++rounds;
    const bool speculate = rounds == 1 && options.maxRounds != 1;
    std::vector<int64_t> active;
    std::vector<int64_t> predecessors;
    for (int64_t b = 1; b < B; ++b) {
      if (!pending[static_cast<size_t>(b)]) continue;
      pending[static_cast<size_t>(b)] = 0;
      active.push_back(b);
      predecessors.push_back(b - 1);
      if (rounds > 1) break;
    }
    States current = cloned(selectRows(ends, indexTensor(predecessors, options.device)));
    for (int64_t w = 0; w < W && !active.empty(); ++w) {
      streams.read(w, active, current, scorer);
      for (auto& sample : current) sample.detach();
      rereadSteps += static_cast<int64_t>(active.size()) *
                     std::min(options.bptt, streams.length() - w * options.bptt);
      if (w >= kept) continue;
      const auto index = indexTensor(active, options.device);
      const auto distance =
          rowDistance(current, selectRows(boundary[static_cast<size_t>(w)], index));
      writeRows(boundary[static_cast<size_t>(w)], index, current);
      const bool giveUp = speculate && w + 1 == speculateWindows && w + 1 < W;
      std::vector<int64_t> still;
      std::vector<int64_t> rows;
      for (size_t i = 0; i < active.size(); ++i) {
        const auto b = static_cast<size_t>(active[i]);
        if (w >= mergeFrom[b] && distance[i] <= options.tolerance) {
          mergeFrom[b] = 0;  // met: the stream's reading is whole again
        } else if (giveUp) {
          pending[b] = 1;
          mergeFrom[b] = speculateWindows;
        } else {
          still.push_back(active[i]);
          rows.push_back(static_cast<int64_t>(i));
        }
      }
      if (still.size() != active.size()) {
        if (!still.empty()) current = selectRows(current, indexTensor(rows, options.device));
        active = still;
      }
    }
    if (!active.empty()) {
      // Read to the end without meeting the earlier reading: a new end state, so the next
      // stream starts elsewhere than it did.
      writeRows(ends, indexTensor(active, options.device), current);
      for (const int64_t b : active) {
        mergeFrom[static_cast<size_t>(b)] = 0;
        if (b + 1 < B) pending[static_cast<size_t>(b + 1)] = 1;
      }
    }
    const auto next = std::find(pending.begin(), pending.end(), 1);  // streams before it: final
    say(firstShare + (1.0 - firstShare) * static_cast<double>(next - pending.begin() - 1) /
                         static_cast<double>(B - 1));
  }

  OneStreamTotals out = streams.totals();
  out.rounds = rounds;
  out.rereadSteps = rereadSteps;

  // The remainder (fewer than B targets past the last full stream) continues the last stream.
  const int64_t targets = tokens.size() - 1;
  if (streams.remainderStart() < targets) {
    States last = selectRows(ends, indexTensor({B - 1}, options.device));
    for (int64_t at = streams.remainderStart(); at < targets; at += options.bptt) {
      const int64_t steps = std::min(options.bptt, targets - at);
      const auto [nats, counted] = streams.score({at}, steps, last, scorer);
      for (auto& sample : last) sample.detach();
      out.nats += nats[0];
      out.counted += counted[0];
      out.positions += steps;
    }
  }
  say(1.0);
  return out;
}

}  // namespace mrnn::engine
