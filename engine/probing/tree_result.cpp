#include "engine/probing/tree_result.h"

#include <cmath>
#include <map>
#include <stdexcept>

namespace mrnn::engine {

double euclideanDistance(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("hidden states of different widths");
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
    sum += d * d;
  }
  return std::sqrt(sum);
}

double cosineDistance(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("hidden states of different widths");
  // Identical states are exactly 0 apart; rounding in the norms would otherwise leave ~1e-16.
  if (a == b) return 0.0;
  double dot = 0.0, na = 0.0, nb = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += static_cast<double>(a[i]) * b[i];
    na += static_cast<double>(a[i]) * a[i];
    nb += static_cast<double>(b[i]) * b[i];
  }
  if (na == 0.0 || nb == 0.0) return (na == 0.0 && nb == 0.0) ? 0.0 : 1.0;
  const double cosine = dot / (std::sqrt(na) * std::sqrt(nb));
  return 1.0 - std::max(-1.0, std::min(1.0, cosine));
}

std::vector<DepthSpread> treeSpread(const std::vector<TreeNode>& nodes, int64_t maxDepth) {
  std::vector<DepthSpread> spread;
  for (int64_t depth = 1; depth <= maxDepth; ++depth) {
    std::map<int64_t, std::vector<size_t>> siblings;  // parent -> children
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].depth == depth) siblings[nodes[i].parent].push_back(i);
    }
    DepthSpread level;
    level.depth = depth;
    double euclidean = 0.0, cosine = 0.0;
    for (const auto& entry : siblings) {
      const auto& group = entry.second;
      if (group.size() < 2) continue;
      double groupEuclidean = 0.0, groupCosine = 0.0;
      int64_t groupPairs = 0;
      for (size_t a = 0; a < group.size(); ++a) {
        for (size_t b = a + 1; b < group.size(); ++b) {
          groupEuclidean += euclideanDistance(nodes[group[a]].hidden, nodes[group[b]].hidden);
          groupCosine += cosineDistance(nodes[group[a]].hidden, nodes[group[b]].hidden);
          ++groupPairs;
        }
      }
      euclidean += groupEuclidean / static_cast<double>(groupPairs);
      cosine += groupCosine / static_cast<double>(groupPairs);
      level.pairs += groupPairs;
      ++level.groups;
    }
    if (level.groups > 0) {
      level.meanEuclidean = euclidean / static_cast<double>(level.groups);
      level.meanCosine = cosine / static_cast<double>(level.groups);
    }
    spread.push_back(level);
  }
  return spread;
}

}  // namespace mrnn::engine
