#include "engine/probing/hidden_state_tree.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "engine/analysis/model_device.h"
#include "engine/models/eval_mode_guard.h"
#include "engine/models/language_model.h"
#include "engine/runtime/job_context.h"
#include "engine/runtime/machine_resources.h"

namespace mrnn::engine {
namespace {

constexpr int64_t kChunk = 1024;  // children per forward call: bounds memory, lets a job cancel

// [B, width] on the CPU: the top layer's h, or every layer's h side by side.
torch::Tensor hiddenRows(const ModelState& state, bool allLayers) {
  std::vector<torch::Tensor> parts;
  if (allLayers) {
    for (const auto& layer : state.layers)
      parts.push_back(layer.h().reshape({layer.h().size(0), -1}));
  } else {
    const auto& top = state.layers.back().h();
    parts.push_back(top.reshape({top.size(0), -1}));
  }
  return torch::cat(parts, 1).to(torch::kCPU, torch::kFloat).contiguous();
}

std::vector<float> row(const torch::Tensor& rows, int64_t index) {
  const float* data = rows.data_ptr<float>() + index * rows.size(1);
  return std::vector<float>(data, data + rows.size(1));
}

struct Child {
  int64_t parentRow;  // row of the parent in the previous level's batch
  int64_t symbol;
  double logProb;
};

// The children of each row of `logp` [N, V] (double, CPU) at `depth`; no more than `limit` + 1
// (one over says the level is too large, without building it whole).
std::vector<Child> chooseChildren(const torch::Tensor& logp, int64_t depth,
                                  const TreeOptions& options, int64_t limit) {
  const int64_t vocab = logp.size(1);
  const int64_t cap =
      depth == 1 ? options.firstLevelCap : (options.topK > 0 ? options.topK : vocab);
  const bool useMass = depth > 1 && options.mass < 1.0;
  std::vector<Child> children;
  std::vector<int64_t> order(static_cast<size_t>(vocab));
  for (int64_t r = 0; r < logp.size(0); ++r) {
    const double* values = logp.data_ptr<double>() + r * vocab;
    std::iota(order.begin(), order.end(), 0);
    // Most probable first; ties by id, so the tree is reproducible.
    std::stable_sort(order.begin(), order.end(),
                     [values](int64_t a, int64_t b) { return values[a] > values[b]; });
    double mass = 0.0;
    for (int64_t k = 0; k < std::min(cap, vocab); ++k) {
      const int64_t symbol = order[static_cast<size_t>(k)];
      children.push_back({r, symbol, values[symbol]});
      if (static_cast<int64_t>(children.size()) > limit) return children;
      mass += std::exp(values[symbol]);
      if (useMass && mass >= options.mass) break;
    }
  }
  return children;
}

// What a node costs while the tree grows: its kept hidden vector and record, and while its
// level is expanded its state row, next-symbol row and a copy of each; half as much again for
// the allocator's slack and the vectors' growth (measured: 1.2 KB a node where this counts 0.9).
double nodeBytes(const ModelState& oneRow, int64_t vocab, size_t hiddenWidth) {
  return 1.5 * (2.0 * oneRow.bytes() + 16.0 * static_cast<double>(vocab) +
                8.0 * static_cast<double>(hiddenWidth) + 200.0);
}

// A level that would take the tree past its node limit, or past memory: refused in words.
[[noreturn]] void refuseLevel(int64_t depth, int64_t limit, const TreeOptions& options,
                              double perNode, double memory) {
  if (limit == options.maxNodes) {
    throw std::invalid_argument("the tree would exceed " + std::to_string(options.maxNodes) +
                                " nodes at depth " + std::to_string(depth) +
                                "; lower the depth, top-k or mass");
  }
  throw ResourceError("the tree at depth " + std::to_string(depth) + " holds more than " +
                      std::to_string(limit) + " nodes, about " +
                      formatBytes(perNode * static_cast<double>(limit)) + "; this machine has " +
                      formatBytes(memory) + " available: lower the depth, top-k or mass");
}

}  // namespace

TreeResult expandTree(LanguageModel& model, const Vocabulary& vocabulary,
                      const std::string& context, const TreeOptions& options, JobContext* job) {
  if (options.depth < 1) throw std::invalid_argument("the tree depth must be at least 1");
  if (options.firstLevelCap < 1 || options.topK < 0 || !(options.mass > 0.0)) {
    throw std::invalid_argument(
        "tree options: the depth-1 cap must be positive, top-k non-negative, mass above 0");
  }
  TreeResult result;
  result.context = vocabulary.encode(context);
  if (result.context.empty()) {
    throw std::invalid_argument("the context is empty: the tree needs at least one symbol");
  }

  torch::NoGradGuard noGrad;
  EvalModeGuard evalMode(model);
  const auto device = modelDevice(model);
  ModelState state = model.initialState(1);
  const auto tokens = torch::tensor(result.context, torch::kLong).to(device).unsqueeze(1);
  auto out = model.forward(tokens, state);  // [T, 1, V]
  result.rootHidden = row(hiddenRows(state, options.allLayers), 0);
  torch::Tensor logp = out[out.size(0) - 1].to(torch::kCPU, torch::kDouble).contiguous();
  std::vector<int64_t> levelNodes = {-1};  // node index of each row of `logp` / `state`
  std::vector<double> levelCumulative = {0.0};
  // The nodes it may hold: options.maxNodes, and no more than memory holds.
  const double perNode = nodeBytes(state, model.vocab(), result.rootHidden.size());
  const double memory =
      options.memoryBytes > 0.0 ? options.memoryBytes : static_cast<double>(availableMemoryBytes());
  int64_t limit = options.maxNodes;
  if (memory > 0.0 && memory / perNode < static_cast<double>(limit)) {
    limit = static_cast<int64_t>(memory / perNode);
  }

  for (int64_t depth = 1; depth <= options.depth; ++depth) {
    const auto room = limit - static_cast<int64_t>(result.nodes.size());
    const std::vector<Child> children = chooseChildren(logp, depth, options, room);
    const auto count = static_cast<int64_t>(children.size());
    if (count > room) refuseLevel(depth, limit, options, perNode, memory);
    std::vector<int64_t> parentRows, symbols;
    for (const auto& child : children) {
      parentRows.push_back(child.parentRow);
      symbols.push_back(child.symbol);
    }
    const auto parentIndex = torch::tensor(parentRows, torch::kLong).to(device);
    const auto symbolIndex = torch::tensor(symbols, torch::kLong).to(device);
    std::vector<ModelState> states;
    std::vector<torch::Tensor> logps;
    for (int64_t begin = 0; begin < count; begin += kChunk) {
      const double done = static_cast<double>(begin) / static_cast<double>(count);
      reportTo(job, (static_cast<double>(depth - 1) + done) / static_cast<double>(options.depth),
               "depth " + std::to_string(depth));
      const int64_t end = std::min(count, begin + kChunk);
      ModelState chunk = state.rows(parentIndex.slice(0, begin, end));
      const auto step = model.forward(symbolIndex.slice(0, begin, end).unsqueeze(0), chunk);
      logps.push_back(step[0].to(torch::kCPU, torch::kDouble));
      states.push_back(std::move(chunk));
    }
    state = ModelState::concatenated(states);
    logp = torch::cat(logps, 0).contiguous();
    const auto hidden = hiddenRows(state, options.allLayers);

    std::vector<int64_t> nextNodes;
    std::vector<double> nextCumulative;
    for (int64_t c = 0; c < count; ++c) {
      const auto& child = children[static_cast<size_t>(c)];
      TreeNode node;
      node.symbol = child.symbol;
      node.text = vocabulary.symbol(child.symbol);
      node.probability = std::exp(child.logProb);
      node.cumulativeLogProb =
          levelCumulative[static_cast<size_t>(child.parentRow)] + child.logProb;
      node.depth = depth;
      node.parent = levelNodes[static_cast<size_t>(child.parentRow)];
      node.hidden = row(hidden, c);
      nextNodes.push_back(static_cast<int64_t>(result.nodes.size()));
      nextCumulative.push_back(node.cumulativeLogProb);
      result.nodes.push_back(std::move(node));
    }
    levelNodes = std::move(nextNodes);
    levelCumulative = std::move(nextCumulative);
  }
  result.spread = treeSpread(result.nodes, options.depth);
  reportTo(job, 1.0, "done");
  return result;
}

}  // namespace mrnn::engine
