// Runs of one configuration trained with several seeds are found as one group, whatever
// their names, seeds and thread counts; any other setting splits them.

#include "engine/config/seed_groups.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

std::string config(const std::string& name, int seed, int hidden, const std::string& extra = "") {
  return "name: " + name +
         "\nmodel:\n  input: {level: char}\n  init: {seed: " + std::to_string(seed) +
         "}\n  layers: [{type: lstm, hidden_size: " + std::to_string(hidden) +
         "}]\ndata: {train: a.txt}\ntraining:\n  seed: " + std::to_string(seed) +
         "\n  max_steps: 100\n" + extra;
}

}  // namespace

MRNN_TEST(seeds_of_one_configuration_form_one_group) {
  const std::vector<std::pair<int64_t, std::string>> runs = {
      {1, config("grid #1, seed 1", 1, 32)},
      {2, config("grid #2, seed 2", 2, 32, "  threads: 2\n")},
      {3, config("grid #3, seed 1", 1, 64)},
      {4, config("grid #4, seed 2", 2, 64)},
      {5, config("lone", 7, 32, "  clip_norm: 0.5\n")},
  };
  for (const auto& run : runs) EXPECT(engine::configurationKey(run.second).rfind("text:", 0) != 0);
  const auto groups = engine::groupBySeed(runs);
  EXPECT_EQ(groups.size(), size_t{3});
  EXPECT(groups[0] == (std::vector<int64_t>{1, 2}));
  EXPECT(groups[1] == (std::vector<int64_t>{3, 4}));
  EXPECT(groups[2] == (std::vector<int64_t>{5}));
}

MRNN_TEST(key_order_and_spelled_out_defaults_do_not_split_a_group) {
  const std::string reordered =
      "training:\n  max_steps: 100\n  seed: 9\ndata: {train: a.txt}\nname: other\nmodel:\n"
      "  layers: [{type: lstm, hidden_size: 32}]\n  input: {level: char}\n  init: {seed: 9}\n";
  EXPECT_EQ(engine::configurationKey(reordered), engine::configurationKey(config("x", 1, 32)));
  EXPECT(engine::configurationKey(config("x", 1, 32)) !=
         engine::configurationKey(config("x", 1, 33)));
}

MRNN_TEST(settings_that_do_not_parse_are_compared_as_text) {
  const auto groups = engine::groupBySeed({{1, "model: ["}, {2, "model: ["}, {3, "other: ["}});
  EXPECT_EQ(groups.size(), size_t{2});
  EXPECT(groups[0] == (std::vector<int64_t>{1, 2}));
}
