// The data: section of a project: every key parsed, bad keys and values located by file,
// line, column and key path, and the writer's output read back unchanged.

#include <yaml-cpp/yaml.h>

#include "engine/config/config_error.h"
#include "engine/config/data_config.h"
#include "engine/config/yaml_reader.h"
#include "test_harness.h"

using namespace mrnn;
using engine::ConfigError;
using engine::CorpusFormat;
using engine::DataConfig;

namespace {

// Parses `text` (a whole document whose `data:` key holds the section) as project.yaml.
DataConfig parse(const std::string& text) {
  const YAML::Node root = YAML::Load(text);
  engine::YamlReader reader("project.yaml");
  return engine::parseDataSection(root["data"], reader);
}

}  // namespace

MRNN_TEST(data_section_reads_every_key) {
  const DataConfig files = parse(
      "data:\n"
      "  train: ptb/ptb.train.txt\n"
      "  valid: ptb/ptb.valid.txt\n"
      "  test: ptb/ptb.test.txt\n"
      "  format: tokens\n"
      "  max_symbols: 5000\n"
      "  min_count: 3\n");
  EXPECT_EQ(files.train, std::string("ptb/ptb.train.txt"));
  EXPECT_EQ(files.valid, std::string("ptb/ptb.valid.txt"));
  EXPECT_EQ(files.test, std::string("ptb/ptb.test.txt"));
  EXPECT(files.format == CorpusFormat::Tokens);
  EXPECT_EQ(files.maxSymbols, int64_t{5000});
  EXPECT_EQ(files.minCount, int64_t{3});

  const DataConfig split =
      parse("data:\n  train: enwik8\n  format: raw\n  valid_fraction: 0.1\n  test_fraction: 0\n");
  EXPECT(split.format == CorpusFormat::Raw);
  EXPECT_NEAR(split.validFraction, 0.1, 0.0);
  EXPECT_NEAR(split.testFraction, 0.0, 0.0);
  EXPECT(split.valid.empty() && split.test.empty());

  const DataConfig defaults = parse("data:\n  train: input.txt\n");
  EXPECT(defaults.format == CorpusFormat::Auto);
  EXPECT_NEAR(defaults.validFraction, 0.05, 0.0);
  EXPECT_NEAR(defaults.testFraction, 0.05, 0.0);
  EXPECT_EQ(defaults.maxSymbols, int64_t{0});
  EXPECT_EQ(defaults.minCount, int64_t{1});
}

MRNN_TEST(data_section_round_trips_through_the_writer) {
  for (const char* text :
       {"data:\n  train: a.txt\n  valid: b.txt\n  test: c.txt\n  format: ptb-char\n",
        "data:\n  train: a.txt\n  valid_fraction: 0.125\n  test_fraction: 0.25\n"
        "  max_symbols: 77\n  min_count: 2\n"}) {
    const DataConfig config = parse(text);
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "data" << YAML::Value;
    engine::emitDataSection(out, config);
    out << YAML::EndMap;
    const DataConfig back = parse(out.c_str());
    EXPECT_EQ(back.train, config.train);
    EXPECT_EQ(back.valid, config.valid);
    EXPECT_EQ(back.test, config.test);
    EXPECT(back.format == config.format);
    EXPECT_NEAR(back.validFraction, config.validFraction, 0.0);
    EXPECT_NEAR(back.testFraction, config.testFraction, 0.0);
    EXPECT_EQ(back.maxSymbols, config.maxSymbols);
    EXPECT_EQ(back.minCount, config.minCount);
  }
}

MRNN_TEST(data_section_unknown_key_is_located) {
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a.txt\n  vocab: 100\n"),
                     "project.yaml:3:3", "data.vocab", "unknown key", "'min_count'");
  EXPECT_THROWS_WITH(ConfigError, parse("data: corpus.txt\n"), "project.yaml:1:7", "data",
                     "expected a mapping");
}

MRNN_TEST(data_section_needs_train) {
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  format: text\n"), "data.train", "missing");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: ''\n"), "project.yaml:2:10", "data.train",
                     "empty");
}

MRNN_TEST(data_section_valid_and_test_come_together) {
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a.txt\n  valid: b.txt\n"),
                     "project.yaml:3:10", "data.valid", "without 'test'", "give both");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a.txt\n  test: c.txt\n"), "data.test",
                     "without 'valid'");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("data:\n  train: a\n  valid: b\n  test: c\n  valid_fraction: 0.1\n"),
                     "project.yaml:5:19", "data.valid_fraction", "only when");
}

MRNN_TEST(data_section_bad_values_are_located) {
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a\n  valid_fraction: 0.5\n"),
                     "project.yaml:3:19", "data.valid_fraction", "out of range", "exclusive");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a\n  test_fraction: -0.1\n"),
                     "data.test_fraction", "out of range");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a\n  test_fraction: lots\n"),
                     "expected a number");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a\n  format: csv\n"), "data.format",
                     "'csv' is not allowed", "'ptb-char'");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a\n  max_symbols: 1\n"),
                     "data.max_symbols", "at least 2");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a\n  max_symbols: -5\n"),
                     "data.max_symbols", "out of range");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: a\n  min_count: 0\n"), "data.min_count",
                     "out of range");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: {a: b}\n"), "data.train",
                     "expected a text value");
}

MRNN_TEST(data_section_reads_several_training_files) {
  const DataConfig several = parse("data:\n  train: [a.txt, sub/b.txt, c.txt]\n");
  EXPECT_EQ(several.train, std::string("a.txt"));
  EXPECT_EQ(several.moreTrain.size(), size_t{2});
  EXPECT_EQ(engine::trainFiles(several).at(1), std::string("sub/b.txt"));
  EXPECT_EQ(engine::trainFiles(several).at(2), std::string("c.txt"));
  // A list of one is the plain form.
  EXPECT(parse("data:\n  train: [a.txt]\n").moreTrain.empty());
  // Written back as a list, read back the same.
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "data" << YAML::Value;
  engine::emitDataSection(out, several);
  out << YAML::EndMap;
  EXPECT(engine::trainFiles(parse(out.c_str())) == engine::trainFiles(several));
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: []\n"), "data.train", "empty list");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: [a.txt, '']\n"), "project.yaml:2:18",
                     "data.train[1]", "is empty");
  EXPECT_THROWS_WITH(ConfigError, parse("data:\n  train: [a.txt, [b]]\n"), "data.train[1]",
                     "expected a file name");
}
