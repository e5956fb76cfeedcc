#include "engine/training/data_parallel.h"

#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mrnn::engine {
namespace {

// Parts appended flat (as float) to `out`, each padded with zero rows to `rows` rows.
void packRows(const torch::Tensor& part, int64_t rows, std::vector<torch::Tensor>& out) {
  auto sizes = part.sizes().vec();
  const int64_t have = sizes.empty() ? 0 : sizes[0];
  auto flat = part.to(torch::kFloat).contiguous();
  if (have < rows) {
    sizes[0] = rows - have;
    flat = torch::cat({flat, torch::zeros(sizes, flat.options())}, 0);
  }
  out.push_back(flat.reshape({-1}));
}

}  // namespace

StreamShard streamShard(int64_t batch, int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size) {
    throw std::invalid_argument("rank " + std::to_string(rank) + " of " + std::to_string(size) +
                                " is not a rank of the run");
  }
  if (batch % size != 0) {
    throw std::invalid_argument("training.batch_size: " + std::to_string(batch) +
                                " streams do not split evenly over " + std::to_string(size) +
                                " ranks; give a batch size divisible by " + std::to_string(size));
  }
  const int64_t count = batch / size;
  return {count * rank, count};
}

ModelState stateRows(const ModelState& state, int64_t begin, int64_t count) {
  ModelState out;
  for (const auto& layer : state.layers) {
    CellState cell;
    for (const auto& part : layer.parts) cell.parts.push_back(part.narrow(0, begin, count));
    out.layers.push_back(std::move(cell));
  }
  return out;
}

ModelState gatherState(const ModelState& local, Collective& collective) {
  ModelState out = local;
  for (auto& layer : out.layers) {
    for (auto& part : layer.parts) {
      const auto all = collective.allGather(part.detach().contiguous());
      part = torch::cat(all, 0);
    }
  }
  return out;
}

WindowScorer splitAcrossRanks(WindowScorer scorer, Collective& collective) {
  return [scorer = std::move(scorer), &collective](const torch::Tensor& inputs,
                                                   const torch::Tensor& targets,
                                                   std::vector<ModelState>& states) {
    const int ranks = collective.size();
    const int64_t steps = inputs.size(0);
    const int64_t streams = inputs.size(1);
    const int64_t chunk = (streams + ranks - 1) / ranks;
    const auto share = [&](int r) {
      const int64_t begin = std::min<int64_t>(streams, chunk * r);
      return std::make_pair(begin, std::min<int64_t>(streams, begin + chunk) - begin);
    };
    const auto [begin, count] = share(collective.rank());

    // This rank's streams: scores [T, count] and their states after the window.
    torch::Tensor nll;
    std::vector<ModelState> mine;
    for (const auto& state : states) mine.push_back(stateRows(state, begin, count));
    if (count > 0) {
      nll = scorer(inputs.narrow(1, begin, count), targets.narrow(1, begin, count), mine);
    } else {
      nll = torch::zeros({steps, 0}, torch::TensorOptions().device(inputs.device()));
    }

    // One flat buffer per rank, padded to `chunk` streams, so every rank sends as much.
    std::vector<torch::Tensor> pieces;
    packRows(nll.t(), chunk, pieces);
    for (const auto& state : mine)
      for (const auto& layer : state.layers)
        for (const auto& part : layer.parts) packRows(part, chunk, pieces);
    const auto all = collective.allGather(torch::cat(pieces));

    std::vector<torch::Tensor> scores;
    std::vector<std::vector<std::vector<std::vector<torch::Tensor>>>> parts(states.size());
    for (int r = 0; r < ranks; ++r) {
      const int64_t n = share(r).second;
      int64_t at = 0;
      const auto take = [&](const torch::Tensor& like) {
        auto sizes = like.sizes().vec();
        sizes[0] = chunk;
        int64_t numel = 1;
        for (const auto s : sizes) numel *= s;
        auto piece = all[r].narrow(0, at, numel).view(sizes).narrow(0, 0, n);
        at += numel;
        return piece.to(like.scalar_type());
      };
      scores.push_back(take(torch::empty({chunk, steps}, nll.options())).t());
      for (size_t s = 0; s < states.size(); ++s) {
        parts[s].resize(states[s].layers.size());
        for (size_t l = 0; l < states[s].layers.size(); ++l) {
          parts[s][l].resize(states[s].layers[l].parts.size());
          for (size_t p = 0; p < states[s].layers[l].parts.size(); ++p) {
            parts[s][l][p].push_back(take(states[s].layers[l].parts[p]));
          }
        }
      }
    }
    for (size_t s = 0; s < states.size(); ++s)
      for (size_t l = 0; l < states[s].layers.size(); ++l)
        for (size_t p = 0; p < states[s].layers[l].parts.size(); ++p)
          states[s].layers[l].parts[p] = torch::cat(parts[s][l][p], 0);
    return torch::cat(scores, 1).to(nll.scalar_type());
  };
}

StepAgreement agreeAfterStep(Collective& collective, double localLoss, bool stopAsked,
                             double seconds) {
  const int ranks = collective.size();
  auto values = torch::zeros({2 + ranks}, torch::kDouble);
  auto v = values.accessor<double, 1>();
  v[0] = localLoss;
  v[1] = stopAsked ? 1.0 : 0.0;
  v[2 + collective.rank()] = seconds;
  collective.sum(values);
  StepAgreement out;
  out.loss = v[0];
  out.stop = v[1] > 0.0;
  for (int r = 0; r < ranks; ++r) out.seconds.push_back(v[2 + r]);
  return out;
}

void broadcastParameters(const std::vector<torch::Tensor>& parameters, Collective& collective) {
  torch::NoGradGuard noGrad;
  for (const auto& p : parameters) {
    auto data = p.detach();
    collective.broadcast(data, 0);
  }
}

torch::Tensor gatherGeneratorStates(const torch::Tensor& local, Collective& collective) {
  return torch::stack(collective.allGather(local.contiguous()));
}

}  // namespace mrnn::engine
