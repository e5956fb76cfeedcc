// The reverse copy task in a project's data: section: every key read, the paper's defaults,
// the writer's output read back unchanged, and every bad input refused with its file, line,
// column and key.

#include <yaml-cpp/yaml.h>

#include "engine/config/config_error.h"
#include "engine/config/data_config.h"
#include "engine/config/project_file.h"
#include "engine/config/yaml_reader.h"
#include "test_harness.h"

using namespace mrnn;
using engine::ConfigError;
using engine::DataConfig;

namespace {

DataConfig parse(const std::string& text) {
  const YAML::Node root = YAML::Load(text);
  engine::YamlReader reader("project.yaml");
  return engine::parseDataSection(root["data"], reader);
}

// A word-level project around a data: section.
std::string project(const std::string& data, const std::string& level = "word") {
  return "name: copy\nmodel:\n  input: {level: " + level +
         ", embedding_size: 8}\n  layers:\n    - {type: lstm, hidden_size: 16}\ndata:\n" + data;
}

}  // namespace

MRNN_TEST(copy_section_reads_every_key) {
  const DataConfig config = parse(
      "data:\n"
      "  synthetic: reverse_copy\n"
      "  copy: {vocabulary: 100, length: 20, train_examples: 3000, valid_examples: 200,\n"
      "         test_examples: 300, seed: 9}\n");
  EXPECT(config.synthetic == engine::SyntheticTask::ReverseCopy);
  EXPECT_EQ(config.copy.vocabulary, int64_t{100});
  EXPECT_EQ(config.copy.length, int64_t{20});
  EXPECT_EQ(config.copy.trainExamples, int64_t{3000});
  EXPECT_EQ(config.copy.validExamples, int64_t{200});
  EXPECT_EQ(config.copy.testExamples, int64_t{300});
  EXPECT_EQ(config.copy.seed, uint64_t{9});
  EXPECT(config.train.empty() && config.valid.empty() && config.test.empty());
}

MRNN_TEST(copy_section_defaults_are_the_papers) {
  const DataConfig config = parse("data:\n  synthetic: reverse_copy\n");
  EXPECT_EQ(config.copy.vocabulary, int64_t{1000});
  EXPECT_EQ(config.copy.length, int64_t{50});
  EXPECT_EQ(config.copy.trainExamples, int64_t{500000});
  EXPECT_EQ(config.copy.validExamples, int64_t{10000});
  EXPECT_EQ(config.copy.testExamples, int64_t{10000});
  EXPECT_EQ(config.copy.seed, uint64_t{1});
  // A corpus project is untouched by the new keys.
  EXPECT(parse("data:\n  train: a.txt\n").synthetic == engine::SyntheticTask::None);
}

MRNN_TEST(copy_project_round_trips_through_the_writer) {
  const auto original = engine::parseProject(
      project("  synthetic: reverse_copy\n  copy: {vocabulary: 7, length: 3, train_examples: 11,"
              " valid_examples: 5, test_examples: 6, seed: 4}\n"),
      "p.yaml");
  const std::string yaml = engine::projectToYaml(original);
  const auto back = engine::parseProject(yaml, "back.yaml");
  EXPECT(back.data.synthetic == engine::SyntheticTask::ReverseCopy);
  EXPECT_EQ(back.data.copy.vocabulary, int64_t{7});
  EXPECT_EQ(back.data.copy.length, int64_t{3});
  EXPECT_EQ(back.data.copy.trainExamples, int64_t{11});
  EXPECT_EQ(back.data.copy.validExamples, int64_t{5});
  EXPECT_EQ(back.data.copy.testExamples, int64_t{6});
  EXPECT_EQ(back.data.copy.seed, uint64_t{4});
  EXPECT(back.data.train.empty());
  EXPECT_EQ(engine::projectToYaml(back), yaml);                // a fixed point
  EXPECT_MSG(yaml.find("train:") == std::string::npos, yaml);  // no file keys written
}

MRNN_TEST(copy_mixed_with_files_is_located) {
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  synthetic: reverse_copy\n  train: a.txt\n"),
                     "project.yaml:3:10", "data.train", "does not apply to generated data");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("data:\n  valid: b.txt\n  synthetic: reverse_copy\n  test: c.txt\n"),
                     "project.yaml:2:10", "data.valid", "remove 'synthetic' to read corpus files");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  synthetic: reverse_copy\n  min_count: 2\n"),
                     "project.yaml:3:14", "data.min_count");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a.txt\n  copy: {length: 5}\n"),
                     "project.yaml:3:9", "data.copy", "add 'synthetic: reverse_copy'");
}

MRNN_TEST(copy_unknown_task_and_keys_are_located) {
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  synthetic: copy\n"), "project.yaml:2:14",
                     "data.synthetic", "'copy' is not allowed", "'reverse_copy'");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  synthetic: none\n"), "project.yaml:2:14",
                     "data.synthetic", "leave the key out");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("data:\n  synthetic: reverse_copy\n  copy:\n    vocab: 10\n"),
                     "project.yaml:4:5", "data.copy.vocab", "unknown key", "'vocabulary'");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  synthetic: reverse_copy\n  copy: 5\n"),
                     "data.copy", "expected a mapping");
}

MRNN_TEST(copy_sizes_must_be_positive) {
  const char* const keys[] = {"vocabulary", "length", "train_examples", "valid_examples",
                              "test_examples"};
  for (const char* key : keys) {
    for (const char* value : {"0", "-3"}) {
      const std::string text = std::string("data:\n  synthetic: reverse_copy\n  copy:\n    ") +
                               key + ": " + value + "\n";
      const int column = 7 + static_cast<int>(std::string(key).size());
      EXPECT_THROWS_WITH(ConfigError, parse(text), "project.yaml:4:" + std::to_string(column) + ":",
                         std::string("data.copy.") + key,
                         std::string("out of range; expected 1 to"));
    }
  }
  EXPECT_THROWS_WITH(ConfigError,
                     parse("data:\n  synthetic: reverse_copy\n  copy: {length: ten}\n"),
                     "data.copy.length", "expected an integer, got 'ten'");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  synthetic: reverse_copy\n  copy: {seed: -1}\n"),
                     "data.copy.seed", "out of range");
  // 2^31 tokens at most per split: 500,000 examples of length 5000 are 5 billion.
  EXPECT_THROWS_WITH(ConfigError,
                     parse("data:\n  synthetic: reverse_copy\n  copy: {length: 5000}\n"),
                     "project.yaml:3:9", "data.copy.train_examples", "5001000000 tokens", "2^31");
}

MRNN_TEST(copy_needs_a_word_level_model) {
  EXPECT_THROWS_WITH(ConfigError,
                     engine::parseProject(project("  synthetic: reverse_copy\n", "char"), "p.yaml"),
                     "p.yaml:7:3", "data.synthetic", "word level", "(it is 'char')");
  EXPECT_THROWS_WITH(ConfigError,
                     engine::parseProject(project("  synthetic: reverse_copy\n", "byte"), "p.yaml"),
                     "data.synthetic", "(it is 'byte')");
  const auto ok = engine::parseProject(project("  synthetic: reverse_copy\n"), "p.yaml");
  EXPECT(ok.hasData && ok.data.synthetic == engine::SyntheticTask::ReverseCopy);
}

MRNN_TEST(corpus_projects_still_need_their_training_file) {
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  format: text\n"), "data.train", "missing",
                     "synthetic: reverse_copy");
}
