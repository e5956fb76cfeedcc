// Data parallel's parts: where a rank stands (torchrun, srun), the batch's shares, gradient
// buckets against a plain backward pass, and a real two-rank c10d group on threads: its
// collectives, held-out evaluation split over ranks equal to one process's, and a rank that
// leaves named by the other. tests/cli/distributed_life.sh trains whole runs on processes.
#include <torch/torch.h>

#include <map>
#include <thread>

#include "engine/data/corpus.h"
#include "engine/distributed/c10d_collective.h"
#include "engine/distributed/rank_environment.h"
#include "engine/training/data_parallel.h"
#include "engine/training/evaluator.h"
#include "engine/training/gradient_buckets.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "two_rank_group.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

engine::EnvironmentLookup lookupIn(std::map<std::string, std::string> variables) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(variables));
  return [shared](const char* name) -> const char* {
    const auto found = shared->find(name);
    return found == shared->end() ? nullptr : found->second.c_str();
  };
}

// `copies` identical ranks seen from rank 0: a sum is the tensor times `copies`.
class CopiesCollective : public engine::Collective {
 public:
  explicit CopiesCollective(int copies) : copies_(copies) {}
  int rank() const override { return 0; }
  int size() const override { return copies_; }
  std::function<void()> startSum(torch::Tensor tensor) override {
    sizes.push_back(tensor.numel());
    return [tensor, this]() mutable { tensor.mul_(copies_); };
  }
  std::vector<torch::Tensor> allGather(const torch::Tensor& local) override {
    return std::vector<torch::Tensor>(static_cast<size_t>(copies_), local.clone());
  }
  void broadcast(torch::Tensor, int) override {}
  std::vector<int64_t> sizes;

 private:
  int copies_;
};

engine::ModelConfig twoLayers() {
  engine::ModelConfig config;
  config.input.embeddingSize = 6;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Mlstm;
  layer.hiddenSize = 12;
  config.layers = {layer, layer};
  return config;
}

}  // namespace

MRNN_TEST(torchrun_variables_make_a_rank) {
  const auto env = engine::rankEnvironment(lookupIn({{"RANK", "1"},
                                                     {"WORLD_SIZE", "4"},
                                                     {"LOCAL_RANK", "1"},
                                                     {"LOCAL_WORLD_SIZE", "2"},
                                                     {"MASTER_ADDR", "10.0.0.5"},
                                                     {"MASTER_PORT", "29500"},
                                                     {"TORCHELASTIC_RUN_ID", "x"},
                                                     {"TORCHELASTIC_USE_AGENT_STORE", "True"},
                                                     {"TORCHELASTIC_RESTART_COUNT", "2"}}));
  EXPECT(env.has_value());
  EXPECT_EQ(env->rank, 1);
  EXPECT_EQ(env->size, 4);
  EXPECT_EQ(env->localSize, 2);
  EXPECT_EQ(env->masterAddress, std::string("10.0.0.5"));
  EXPECT_EQ(env->masterPort, 29500);
  EXPECT(env->agentStore);
  EXPECT_EQ(env->storePrefix, std::string("/worker/attempt_2"));
  EXPECT_EQ(env->launcher, std::string("torchrun"));
}

MRNN_TEST(a_plain_process_or_a_world_of_one_is_no_rank) {
  EXPECT(!engine::rankEnvironment(lookupIn({})).has_value());
  EXPECT(!engine::rankEnvironment(lookupIn({{"WORLD_SIZE", "1"}, {"RANK", "0"}})).has_value());
  // A Slurm batch script of a 4-task job is one process until srun starts the tasks.
  EXPECT(!engine::rankEnvironment(lookupIn({{"SLURM_NTASKS", "4"}, {"SLURM_PROCID", "0"}}))
              .has_value());
}

MRNN_TEST(bad_rank_variables_are_named) {
  EXPECT_THROWS_WITH(
      std::runtime_error,
      engine::rankEnvironment(lookupIn(
          {{"WORLD_SIZE", "2"}, {"RANK", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "1"}})),
      "RANK is '2'");
  EXPECT_THROWS_WITH(std::runtime_error,
                     engine::rankEnvironment(lookupIn({{"WORLD_SIZE", "2"}, {"RANK", "0"}})),
                     "MASTER_ADDR is not set");
  EXPECT_THROWS_WITH(
      std::runtime_error,
      engine::rankEnvironment(lookupIn(
          {{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "http"}})),
      "MASTER_PORT is 'http'");
}

MRNN_TEST(srun_tasks_meet_on_the_first_node) {
  const auto env = engine::rankEnvironment(lookupIn({{"SLURM_STEP_NUM_TASKS", "4"},
                                                     {"SLURM_PROCID", "3"},
                                                     {"SLURM_LOCALID", "1"},
                                                     {"SLURM_STEP_TASKS_PER_NODE", "2(x2)"},
                                                     {"SLURM_STEP_NODELIST", "gpu[07-08]"},
                                                     {"SLURM_JOB_ID", "123456"}}));
  EXPECT(env.has_value());
  EXPECT_EQ(env->rank, 3);
  EXPECT_EQ(env->localRank, 1);
  EXPECT_EQ(env->localSize, 2);
  EXPECT_EQ(env->masterAddress, std::string("gpu07"));
  EXPECT_EQ(env->masterPort, 20000 + 123456 % 20000);
  EXPECT_EQ(env->launcher, std::string("srun"));
  EXPECT_EQ(engine::firstSlurmHost("a1,b2"), std::string("a1"));
  EXPECT_EQ(engine::firstSlurmHost("node[012,015-020]"), std::string("node012"));
}

MRNN_TEST(the_batch_splits_evenly_or_not_at_all) {
  const auto shard = engine::streamShard(16, 1, 2);
  EXPECT_EQ(shard.begin, int64_t{8});
  EXPECT_EQ(shard.count, int64_t{8});
  EXPECT_EQ(engine::streamShard(12, 2, 3).begin, int64_t{8});
  EXPECT_THROWS_WITH(std::invalid_argument, engine::streamShard(15, 0, 2),
                     "training.batch_size: 15 streams do not split evenly over 2 ranks");
}

MRNN_TEST(gradient_buckets_sum_every_gradient_and_start_during_backward) {
  torch::manual_seed(3);
  engine::LanguageModel model(twoLayers(), 7);
  const auto inputs = torch::randint(0, 7, {5, 3}, torch::kLong);
  const auto targets = torch::randint(0, 7, {5, 3}, torch::kLong);
  const auto lossOf = [&] {
    auto state = model.initialState(3);
    const auto logp = model.forward(inputs, state);
    return -logp.gather(2, targets.unsqueeze(2)).mean();
  };
  model.zero_grad();
  lossOf().backward();
  std::vector<torch::Tensor> plain;
  for (const auto& p : model.parameters()) plain.push_back(p.grad().clone());

  CopiesCollective copies(3);
  // Small buckets: several, the output layer's first (it is the last parameter).
  engine::GradientBuckets buckets(model.parameters(), copies, 2048);
  EXPECT(buckets.bucketCount() > 2);
  for (int step = 0; step < 2; ++step) {  // the second step reuses the armed buckets
    copies.sizes.clear();
    model.zero_grad();
    buckets.arm();
    lossOf().backward();
    EXPECT(buckets.startedEarly() > 0);
    buckets.finish();
    EXPECT_EQ(static_cast<int64_t>(copies.sizes.size()), buckets.bucketCount());
    const auto parameters = model.parameters();
    for (size_t k = 0; k < parameters.size(); ++k) {
      EXPECT_MSG(torch::allclose(parameters[k].grad(), 3.0 * plain[k], 1e-5, 1e-7),
                 "parameter " + std::to_string(k) + " at step " + std::to_string(step));
    }
  }
}

MRNN_TEST(two_ranks_sum_gather_and_broadcast) {
  onTwoRanks([](int rank, engine::Collective& collective) {
    checkSumGatherBroadcast(rank, collective, torch::TensorOptions());
  });
}

MRNN_TEST(evaluation_split_over_two_ranks_equals_one_process) {
  ScratchProject scratch("split-eval");
  const auto vocabulary =
      engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {" ", "a", "b", "c", "d"});
  std::string text;
  for (int i = 0; i < 40; ++i) text += i % 3 ? "abcd dcba abba " : "cadd bad cab dab ";
  scratch.write("split.txt", text);
  const auto split =
      engine::loadSplit(scratch.file("split.txt"), engine::CorpusFormat::Text, vocabulary);
  engine::EvalOptions options;
  options.batch = 5;  // not a multiple of 2: the last rank's share is smaller
  options.bptt = 7;
  torch::manual_seed(11);
  engine::LanguageModel alone(twoLayers(), vocabulary.size());
  const auto expected = engine::evaluateStatic(alone, split, options);
  // Each rank its own copy, made here: the generator is global, the ranks are threads.
  std::vector<std::unique_ptr<engine::LanguageModel>> models;
  for (int rank = 0; rank < 2; ++rank) {
    torch::manual_seed(11);
    models.push_back(std::make_unique<engine::LanguageModel>(twoLayers(), vocabulary.size()));
  }
  std::vector<double> figures(2);
  onTwoRanks([&](int rank, engine::Collective& collective) {
    engine::EvalOptions mine = options;
    mine.collective = &collective;
    figures[static_cast<size_t>(rank)] =
        engine::evaluateStatic(*models[static_cast<size_t>(rank)], split, mine).nats;
  });
  EXPECT_NEAR(figures[0], expected.nats, 1e-6);
  EXPECT_NEAR(figures[1], expected.nats, 1e-6);
}

MRNN_TEST(a_rank_that_leaves_is_named_by_the_other) {
  std::string message;
  onTwoRanks(
      [&](int rank, engine::Collective& collective) {
        collective.sum(torch::zeros({1}));  // both joined
        if (rank == 1) return;              // leaves: its group closes its connections
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        try {
          collective.sum(torch::zeros({1}));
        } catch (const engine::RankFailure& error) {
          message = error.what();
        }
      },
      std::chrono::seconds(2));
  EXPECT_MSG(message.find("rank 1 is gone") != std::string::npos, message);
}
