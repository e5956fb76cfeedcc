#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mrnn::engine {

// How far to grow the hidden-state tree (Krause et al. Fig. 1, Sutskever et al. §3.1).
struct TreeOptions {
  int64_t depth = 2;
  int64_t firstLevelCap = 64;  // depth 1: every symbol, or the most probable this many
  int64_t topK = 10;           // deeper: at most this many children per node (0: no cap)
  double mass = 0.9;           // ...and stop once the children hold this much probability
                               // (>= 1: no mass limit)
  bool allLayers = false;      // hidden = every layer's h concatenated, else the top layer's
  int64_t maxNodes = 200000;   // refuse trees larger than this
  // Refuse trees that would need more than this; 0: the memory this machine has available.
  double memoryBytes = 0.0;
};

// One node: the state after reading `symbol` on the path from the context's end.
struct TreeNode {
  int64_t symbol = 0;
  std::string text;
  double probability = 0.0;        // p(symbol | context and the path above)
  double cumulativeLogProb = 0.0;  // sum of log p along the path (natural log)
  int64_t depth = 1;
  int64_t parent = -1;  // index into TreeResult::nodes; -1 for depth 1 (the root's children)
  std::vector<float> hidden;
};

// How far apart sibling hidden states lie at one depth: the tree's width. Each figure is the
// mean over sibling groups (the children of one node) of the group's mean pairwise distance;
// groups with fewer than two children have no pairs and are left out.
struct DepthSpread {
  int64_t depth = 0;
  int64_t groups = 0;  // sibling groups with at least two children
  int64_t pairs = 0;   // sibling pairs measured
  double meanEuclidean = 0.0;
  double meanCosine = 0.0;  // cosine distance: 1 - cos
};

struct TreeResult {
  std::vector<int64_t> context;     // the encoded context
  std::vector<float> rootHidden;    // the state after the context (depth 0)
  std::vector<TreeNode> nodes;      // level by level, children of a node together
  std::vector<DepthSpread> spread;  // depths 1..d
};

// Distances on hidden states. Cosine distance is 0 for identical vectors (also zero ones)
// and 1 when exactly one of the two is zero.
double euclideanDistance(const std::vector<float>& a, const std::vector<float>& b);
double cosineDistance(const std::vector<float>& a, const std::vector<float>& b);

// The per-depth spread of `nodes` (as laid out in TreeResult), depths 1..maxDepth.
std::vector<DepthSpread> treeSpread(const std::vector<TreeNode>& nodes, int64_t maxDepth);

}  // namespace mrnn::engine
