// The hidden-state tree (Krause Fig. 1, Sutskever §3.1): node counts, probabilities and
// cumulative log-probabilities known in advance, zero spread for a model whose state ignores
// its input, and the expansion as a cancellable job.

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

#include <chrono>
#include <map>

#include "engine/models/language_model.h"
#include "engine/probing/hidden_state_tree.h"
#include "engine/probing/probing_jobs.h"
#include "engine/probing/probing_output.h"
#include "engine/runtime/machine_resources.h"
#include "probing_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;
using engine::CellType;

namespace {

engine::TreeOptions fullExpansion(int64_t depth, int64_t vocab) {
  engine::TreeOptions options;
  options.depth = depth;
  options.firstLevelCap = vocab;
  options.topK = vocab;
  options.mass = 1.0;
  return options;
}

}  // namespace

MRNN_TEST(distances_of_known_vectors) {
  EXPECT_NEAR(engine::cosineDistance({0.3f, -1.7f, 2.f}, {0.3f, -1.7f, 2.f}), 0.0, 0.0);
  EXPECT_NEAR(engine::cosineDistance({1.f, 0.f}, {0.f, 2.f}), 1.0, 1e-12);
  EXPECT_NEAR(engine::cosineDistance({1.f, 1.f}, {-2.f, -2.f}), 2.0, 1e-12);
  EXPECT_NEAR(engine::cosineDistance({0.f, 0.f}, {0.f, 0.f}), 0.0, 0.0);
  EXPECT_NEAR(engine::euclideanDistance({0.f, 0.f}, {3.f, 4.f}), 5.0, 1e-12);
}

MRNN_TEST(spread_of_hand_built_siblings) {
  std::vector<engine::TreeNode> nodes(5);
  // Depth 1: three siblings on a line at 0, 3, 6: pairs 3, 6, 3 -> mean 4.
  for (int i = 0; i < 3; ++i) {
    nodes[static_cast<size_t>(i)].depth = 1;
    nodes[static_cast<size_t>(i)].hidden = {3.f * static_cast<float>(i), 1.f};
  }
  // Depth 2: two children of node 0, orthogonal unit vectors; distance sqrt 2, cosine 1.
  nodes[3] = {};
  nodes[3].depth = 2;
  nodes[3].parent = 0;
  nodes[3].hidden = {1.f, 0.f};
  nodes[4] = nodes[3];
  nodes[4].hidden = {0.f, 1.f};
  const auto spread = engine::treeSpread(nodes, 2);
  EXPECT_EQ(spread.size(), size_t{2});
  EXPECT_EQ(spread[0].groups, 1);
  EXPECT_EQ(spread[0].pairs, 3);
  EXPECT_NEAR(spread[0].meanEuclidean, 4.0, 1e-12);
  EXPECT_NEAR(spread[1].meanEuclidean, std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(spread[1].meanCosine, 1.0, 1e-12);
}

MRNN_TEST(full_expansion_has_v_plus_v_squared_nodes_whose_children_sum_to_one) {
  const int64_t vocab = 4;
  engine::LanguageModel model(tinyModel({CellType::Lstm}, 5, 3), vocab);
  const auto tree =
      engine::expandTree(model, tinyVocabulary(vocab), "abca", fullExpansion(2, vocab));
  EXPECT_EQ(tree.nodes.size(), static_cast<size_t>(vocab + vocab * vocab));
  std::map<int64_t, double> childMass;
  for (const auto& node : tree.nodes) {
    childMass[node.parent] += node.probability;
    EXPECT_EQ(node.hidden.size(), size_t{5});
    EXPECT_EQ(node.text, std::string(1, static_cast<char>('a' + node.symbol)));
  }
  EXPECT_EQ(childMass.size(), static_cast<size_t>(1 + vocab));  // the root and depth-1 nodes
  for (const auto& entry : childMass) EXPECT_NEAR(entry.second, 1.0, 1e-6);
  EXPECT_EQ(tree.rootHidden.size(), size_t{5});
  EXPECT_EQ(tree.spread.size(), size_t{2});
  EXPECT_EQ(tree.spread[1].groups, vocab);
  EXPECT_EQ(tree.spread[1].pairs, vocab * (vocab - 1) / 2 * vocab);
}

MRNN_TEST(cumulative_log_probability_equals_rescoring_the_path) {
  const int64_t vocab = 3;
  engine::LanguageModel model(tinyModel({CellType::Mlstm, CellType::Gru}, 4, 3), vocab);
  const auto vocabulary = tinyVocabulary(vocab);
  const std::string context = "cab";
  const auto tree = engine::expandTree(model, vocabulary, context, fullExpansion(3, vocab));
  EXPECT_EQ(tree.nodes.size(), size_t{3 + 9 + 27});
  torch::NoGradGuard noGrad;
  model.eval();
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    // The path from the root, read back through the parents.
    std::vector<int64_t> path;
    double sum = 0.0;
    for (int64_t n = static_cast<int64_t>(i); n >= 0;
         n = tree.nodes[static_cast<size_t>(n)].parent) {
      path.insert(path.begin(), tree.nodes[static_cast<size_t>(n)].symbol);
      sum += std::log(tree.nodes[static_cast<size_t>(n)].probability);
    }
    EXPECT_NEAR(tree.nodes[i].cumulativeLogProb, sum, 1e-9);
    EXPECT_EQ(static_cast<int64_t>(path.size()), tree.nodes[i].depth);
    // Re-score context + path in one pass, batch 1.
    auto ids = vocabulary.encode(context);
    ids.insert(ids.end(), path.begin(), path.end());
    auto state = model.initialState(1);
    const auto logp = model.forward(torch::tensor(ids, torch::kLong).unsqueeze(1), state);
    double rescored = 0.0;
    const auto offset = static_cast<int64_t>(context.size()) - 1;
    for (size_t k = 0; k < path.size(); ++k) {
      rescored += logp[offset + static_cast<int64_t>(k)][0][path[k]].item<double>();
    }
    EXPECT_NEAR(tree.nodes[i].cumulativeLogProb, rescored, 1e-5);
    // The node's hidden state is the top layer's h after reading the path.
    const auto h = state.layers.back().h()[0];
    for (size_t u = 0; u < tree.nodes[i].hidden.size(); ++u) {
      EXPECT_NEAR(tree.nodes[i].hidden[u], h[static_cast<int64_t>(u)].item<float>(), 1e-5);
    }
  }
}

MRNN_TEST(a_state_that_ignores_its_input_has_zero_spread) {
  const int64_t vocab = 4;
  for (const auto type : {CellType::Lstm, CellType::Mrnn, CellType::Rnn}) {
    auto config = tinyModel({type}, 6, 3);
    config.layers[0].bias = true;  // the mRNN's optional bias (the others always have one)
    engine::LanguageModel model(config, vocab);
    // Zero input and recurrent weights, random biases: h depends on the step, not the input.
    fillCellParameters(
        model, [](const std::string& name) { return !isBias(name); }, 0.0);
    {
      torch::NoGradGuard noGrad;
      model.named_parameters()["layer1.b"].uniform_(-1.0, 1.0);
    }
    const auto flat =
        engine::expandTree(model, tinyVocabulary(vocab), "ab", fullExpansion(3, vocab));
    for (const auto& level : flat.spread) {
      EXPECT(level.groups > 0);
      EXPECT_NEAR(level.meanEuclidean, 0.0, 0.0);
      EXPECT_NEAR(level.meanCosine, 0.0, 0.0);
    }
    engine::LanguageModel random(tinyModel({type}, 6, 3), vocab);
    const auto wide =
        engine::expandTree(random, tinyVocabulary(vocab), "ab", fullExpansion(3, vocab));
    for (const auto& level : wide.spread) {
      EXPECT(level.meanEuclidean > 1e-4);
      EXPECT(level.meanCosine > 0.0);
    }
  }
}

MRNN_TEST(top_k_mass_and_first_level_cap_limit_the_children) {
  const int64_t vocab = 6;
  engine::LanguageModel model(tinyModel({CellType::Lstm}, 5, 4), vocab);
  engine::TreeOptions options;
  options.depth = 2;
  options.firstLevelCap = 3;
  options.topK = 2;
  options.mass = 1.0;
  const auto tree = engine::expandTree(model, tinyVocabulary(vocab), "abc", options);
  const auto full =
      engine::expandTree(model, tinyVocabulary(vocab), "abc", fullExpansion(1, vocab));
  EXPECT_EQ(tree.nodes.size(), size_t{3 + 3 * 2});
  // Depth 1 holds the three most probable symbols, most probable first.
  std::vector<double> probabilities;
  for (const auto& node : full.nodes) probabilities.push_back(node.probability);
  std::sort(probabilities.rbegin(), probabilities.rend());
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(tree.nodes[i].probability, probabilities[i], 1e-12);

  options.topK = 0;  // mass only: stop once the children hold half the probability
  options.mass = 0.5;
  const auto byMass = engine::expandTree(model, tinyVocabulary(vocab), "abc", options);
  std::map<int64_t, std::vector<double>> children;
  for (const auto& node : byMass.nodes) {
    if (node.depth == 2) children[node.parent].push_back(node.probability);
  }
  EXPECT_EQ(children.size(), size_t{3});
  for (const auto& entry : children) {
    double mass = 0.0;
    for (const double p : entry.second) mass += p;
    EXPECT(mass >= 0.5);
    EXPECT(mass - entry.second.back() < 0.5);  // one fewer would not have reached it
  }
}

MRNN_TEST(all_layers_concatenates_every_layers_state) {
  engine::LanguageModel model(tinyModel({CellType::Lstm, CellType::Gru}, 3, 2), 3);
  auto options = fullExpansion(1, 3);
  options.allLayers = true;
  const auto tree = engine::expandTree(model, tinyVocabulary(3), "ab", options);
  EXPECT_EQ(tree.nodes.front().hidden.size(), size_t{6});
  EXPECT_EQ(tree.rootHidden.size(), size_t{6});
}

MRNN_TEST(bad_tree_requests_are_refused) {
  engine::LanguageModel model(tinyModel({CellType::Lstm}), 3);
  const auto vocabulary = tinyVocabulary(3);
  EXPECT_THROWS_WITH(std::invalid_argument, engine::expandTree(model, vocabulary, ""), "empty");
  auto options = fullExpansion(4, 3);
  options.maxNodes = 50;
  EXPECT_THROWS_WITH(std::invalid_argument, engine::expandTree(model, vocabulary, "a", options),
                     "50", "depth 4");
  options.depth = 0;
  EXPECT_THROWS_WITH(std::invalid_argument, engine::expandTree(model, vocabulary, "a", options),
                     "depth");
}

MRNN_TEST(a_tree_larger_than_memory_is_refused_before_it_is_grown) {
  // The defect: `mrnn analyze tree --max-nodes 1000000000000` grew past 8 GB in 20 s; the node
  // limit was the only bound. Memory bounds the tree too (here a machine of 2 MB).
  const int64_t vocab = 30;
  engine::LanguageModel model(tinyModel({CellType::Lstm}, 5, 3), vocab);
  auto options = fullExpansion(3, vocab);  // 30 + 900 + 27,000 nodes
  options.maxNodes = int64_t{1} << 50;
  options.memoryBytes = 2'000'000;
  EXPECT_THROWS_WITH(engine::ResourceError,
                     engine::expandTree(model, tinyVocabulary(vocab), "ab", options), "at depth 3",
                     "this machine has 2 MB", "lower the depth, top-k or mass");
  options.depth = 2;  // 930 nodes fit
  EXPECT_EQ(engine::expandTree(model, tinyVocabulary(vocab), "ab", options).nodes.size(),
            static_cast<size_t>(vocab + vocab * vocab));
}

MRNN_TEST(two_models_render_side_by_side) {
  engine::LanguageModel a(tinyModel({CellType::Lstm}, 3), 3);
  engine::LanguageModel b(tinyModel({CellType::Mlstm}, 3), 3);
  const auto vocabulary = tinyVocabulary(3);
  std::vector<engine::LabelledTree> trees = {
      {"lstm.yaml", "", engine::expandTree(a, vocabulary, "ab", fullExpansion(2, 3))},
      {"mlstm.yaml", "", engine::expandTree(b, vocabulary, "ab", fullExpansion(2, 3))}};
  const std::string table = engine::treeSpreadTable(trees);
  EXPECT(table.find("euclid 2") != std::string::npos);
  const std::string csv = engine::treeSpreadCsv(trees);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * 2);
  const std::string json = engine::treeJson("ab", fullExpansion(2, 3), trees);
  EXPECT(json.find("\"label\": \"mlstm.yaml\"") != std::string::npos);
  EXPECT(json.find("\"cumulative_log_prob\"") != std::string::npos);
}

MRNN_TEST(tree_job_reports_progress_and_finishes) {
  engine::LanguageModel model(tinyModel({CellType::Lstm}, 4), 3);
  const auto vocabulary = tinyVocabulary(3);
  auto result = std::make_shared<engine::TreeResult>();
  engine::AnalysisJob job(
      engine::treeExpansionWork(model, vocabulary, "abc", fullExpansion(3, 3), result));
  job.start();
  job.wait();
  const auto events = job.events().drain();
  int progress = 0;
  double last = -1.0;
  for (const auto& event : events) {
    if (const auto* p = std::get_if<engine::JobProgress>(&event)) {
      EXPECT(p->fraction >= last);
      last = p->fraction;
      ++progress;
    }
  }
  EXPECT(progress >= 3);  // at least one per depth
  EXPECT_NEAR(last, 1.0, 0.0);
  EXPECT(std::holds_alternative<engine::JobDone>(events.back()));
  EXPECT_EQ(result->nodes.size(), size_t{3 + 9 + 27});
}

MRNN_TEST(tree_job_can_be_cancelled) {
  engine::LanguageModel model(tinyModel({CellType::Lstm}, 4), 3);
  const auto vocabulary = tinyVocabulary(3);
  auto result = std::make_shared<engine::TreeResult>();
  engine::AnalysisJob job(
      engine::treeExpansionWork(model, vocabulary, "abc", fullExpansion(3, 3), result));
  job.cancel();  // before the first report: deterministic, the work stops there
  job.start();
  job.wait();
  const auto events = job.events().drain();
  EXPECT(!events.empty());
  EXPECT(std::holds_alternative<engine::JobCancelled>(events.back()));
  EXPECT(result->nodes.empty());
}
