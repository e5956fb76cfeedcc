#include "engine/config/data_config.h"

#include <algorithm>
#include <limits>

#include "engine/config/yaml_reader.h"

namespace mrnn::engine {
namespace {

const std::vector<std::string> kFormatNames{"auto", "text", "ptb-char", "tokens", "raw"};
// In SyntheticTask's order.
const std::vector<std::string> kSyntheticNames{"none",
                                               "reverse_copy",
                                               "addition",
                                               "temporal_order_2bit",
                                               "temporal_order_3bit",
                                               "random_permutation",
                                               "memorization_5bit",
                                               "memorization_20bit",
                                               "multiplication",
                                               "xor"};

CorpusFormat formatFromName(const std::string& name) {
  for (size_t i = 0; i < kFormatNames.size(); ++i) {
    if (kFormatNames[i] == name) return static_cast<CorpusFormat>(i);
  }
  return CorpusFormat::Auto;
}

bool startsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Keys that name or shape corpus files, so they have no meaning for generated data.
const std::vector<std::string> kFileKeys{
    "train",         "valid",       "test",      "format",      "valid_fraction",
    "test_fraction", "max_symbols", "min_count", "word_counts", "vocabulary"};
const std::vector<std::string> kVocabularyNames{"auto", "all", "train", "train_unk"};
// One split's ids are held in memory (4 bytes each at most): 2^31 tokens is already 8 GB.
constexpr int64_t kMaxSplitTokens = int64_t{1} << 31;
constexpr int64_t kMaxProblemLength = 100'000;
constexpr int64_t kMaxProblemSymbols = int64_t{1} << 26;

CopyTaskConfig parseCopySection(const YAML::Node& node, YamlReader& reader,
                                const std::string& path) {
  reader.expectMap(
      node, path,
      {"vocabulary", "length", "train_examples", "valid_examples", "test_examples", "seed"});
  CopyTaskConfig copy;
  copy.vocabulary = reader.integer(node, path, "vocabulary", copy.vocabulary, 1, 10'000'000);
  copy.length = reader.integer(node, path, "length", copy.length, 1, 1'000'000);
  copy.trainExamples =
      reader.integer(node, path, "train_examples", copy.trainExamples, 1, kMaxSplitTokens);
  copy.validExamples =
      reader.integer(node, path, "valid_examples", copy.validExamples, 1, kMaxSplitTokens);
  copy.testExamples =
      reader.integer(node, path, "test_examples", copy.testExamples, 1, kMaxSplitTokens);
  copy.seed = static_cast<uint64_t>(
      reader.integer(node, path, "seed", 1, 0, std::numeric_limits<int64_t>::max()));
  const std::pair<const char*, int64_t> splits[] = {{"train_examples", copy.trainExamples},
                                                    {"valid_examples", copy.validExamples},
                                                    {"test_examples", copy.testExamples}};
  for (const auto& [key, examples] : splits) {
    const int64_t tokens = examples * (2 * copy.length + 2);  // both < 2^31: no overflow
    if (tokens > kMaxSplitTokens) {
      reader.fail(node[key] ? node[key] : node, joinKey(path, key),
                  std::to_string(examples) + " examples of " + std::to_string(2 * copy.length + 2) +
                      " tokens are " + std::to_string(tokens) +
                      " tokens, more than the 2^31 a split may hold");
    }
  }
  return copy;
}

ProblemConfig parseProblemSection(const YAML::Node& node, YamlReader& reader,
                                  const std::string& path) {
  reader.expectMap(node, path, {"length", "train", "valid", "test", "seed"});
  ProblemConfig problem;
  // The papers' problems run to T = 200 (Hochreiter & Schmidhuber's to 1,000); a sequence
  // is read whole, so its length bounds a window's memory.
  problem.length = reader.integer(node, path, "length", problem.length, 2, kMaxProblemLength);
  problem.trainSequences = reader.integer(node, path, "train", problem.trainSequences, 1,
                                          std::numeric_limits<int64_t>::max() >> 8);
  problem.validSequences =
      reader.integer(node, path, "valid", problem.validSequences, 1, kMaxSplitTokens);
  problem.testSequences =
      reader.integer(node, path, "test", problem.testSequences, 1, kMaxSplitTokens);
  problem.seed = static_cast<uint64_t>(
      reader.integer(node, path, "seed", 1, 0, std::numeric_limits<int64_t>::max()));
  // The held-out sequences are made up front: their symbols are held at once.
  for (const auto& [name, count] :
       {std::pair<const char*, int64_t>{"valid", problem.validSequences},
        {"test", problem.testSequences}}) {
    if (count > kMaxProblemSymbols / problem.length) {
      reader.fail(node[name] ? node[name] : node["length"], joinKey(path, name),
                  std::to_string(count) + " sequences of length " + std::to_string(problem.length) +
                      " would be more than " + std::to_string(kMaxProblemSymbols) +
                      " symbols held at once; ask for fewer");
    }
  }
  return problem;
}

DataConfig parseSyntheticSection(const YAML::Node& node, YamlReader& reader,
                                 const std::string& path) {
  DataConfig config;
  const std::string name = reader.choice(node, path, "synthetic", "none", kSyntheticNames);
  config.synthetic = syntheticTaskNamed(name).value_or(SyntheticTask::None);
  if (config.synthetic == SyntheticTask::None) {
    reader.fail(node["synthetic"], joinKey(path, "synthetic"),
                "'none' is the default; leave the key out to read corpus files");
  }
  for (const auto& key : kFileKeys) {
    if (node[key]) {
      reader.fail(node[key], joinKey(path, key),
                  "does not apply to generated data (data.synthetic: " + name +
                      "); remove it, or remove 'synthetic' to read corpus files");
    }
  }
  const bool problem = isLongRangeProblem(config.synthetic);
  if (node["copy"] && problem) {
    reader.fail(node["copy"], joinKey(path, "copy"),
                "applies to reverse_copy; a long-range problem's size is data.problem");
  }
  if (node["problem"] && !problem) {
    reader.fail(node["problem"], joinKey(path, "problem"),
                "applies to the long-range problems; reverse_copy's size is data.copy");
  }
  if (node["copy"]) config.copy = parseCopySection(node["copy"], reader, joinKey(path, "copy"));
  if (node["problem"]) {
    config.problem = parseProblemSection(node["problem"], reader, joinKey(path, "problem"));
  }
  // Said here, at its line, rather than when a run starts.
  if (problem && config.problem.length < shortestProblemLength(config.synthetic)) {
    const YAML::Node at = node["problem"] && node["problem"]["length"] ? node["problem"]["length"]
                                                                       : node["synthetic"];
    reader.fail(at, joinKey(joinKey(path, "problem"), "length"),
                name + " needs T of at least " +
                    std::to_string(shortestProblemLength(config.synthetic)) + "; got " +
                    std::to_string(config.problem.length));
  }
  return config;
}

}  // namespace

int64_t shortestProblemLength(SyntheticTask task) {
  switch (task) {
    case SyntheticTask::Addition:
    case SyntheticTask::Multiplication:
    case SyntheticTask::TemporalOrder2:
    case SyntheticTask::TemporalOrder3:
      return 20;
    case SyntheticTask::Xor:
      return 40;  // the second mark (below 25% of T) well before the signal (T/2 − 3)
    case SyntheticTask::Memorization5:
      return 2 * 5 + 1;
    case SyntheticTask::Memorization20:
      return 2 * 10 + 1;
    default:
      return 2;
  }
}

std::optional<SyntheticTask> syntheticTaskNamed(const std::string& name) {
  const auto found = std::find(kSyntheticNames.begin(), kSyntheticNames.end(), name);
  if (found == kSyntheticNames.end()) return std::nullopt;
  return static_cast<SyntheticTask>(found - kSyntheticNames.begin());
}

std::string syntheticTaskName(SyntheticTask task) {
  return kSyntheticNames.at(static_cast<size_t>(task));
}

bool isLongRangeProblem(SyntheticTask task) {
  return task != SyntheticTask::None && task != SyntheticTask::ReverseCopy;
}

std::string vocabularySourceName(VocabularySource source) {
  return kVocabularyNames.at(static_cast<size_t>(source));
}

std::string corpusFormatName(CorpusFormat format) {
  return kFormatNames.at(static_cast<size_t>(format));
}

CorpusFormat resolveCorpusFormat(CorpusFormat format, const std::string& path) {
  if (format != CorpusFormat::Auto) return format;
  const size_t slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (startsWith(name, "ptb.char.")) return CorpusFormat::PtbChar;
  if (startsWith(name, "ptb.")) return CorpusFormat::Tokens;
  if (startsWith(name, "wiki.") && endsWith(name, ".tokens")) return CorpusFormat::Tokens;
  return CorpusFormat::Text;
}

std::vector<std::string> trainFiles(const DataConfig& config) {
  std::vector<std::string> files;
  if (!config.train.empty()) files.push_back(config.train);
  files.insert(files.end(), config.moreTrain.begin(), config.moreTrain.end());
  return files;
}

DataConfig parseDataSection(const YAML::Node& node, YamlReader& reader, const std::string& path) {
  reader.expectMap(
      node, path,
      {"synthetic", "copy", "problem", "train", "valid", "test", "format", "valid_fraction",
       "test_fraction", "max_symbols", "min_count", "word_counts", "vocabulary"});
  if (node["synthetic"]) return parseSyntheticSection(node, reader, path);
  if (node["problem"]) {
    reader.fail(node["problem"], joinKey(path, "problem"),
                "applies only to generated data; add 'synthetic: temporal_order_2bit' (or "
                "another long-range problem)");
  }
  if (node["copy"]) {
    reader.fail(node["copy"], joinKey(path, "copy"),
                "applies only to generated data; add 'synthetic: reverse_copy'");
  }
  DataConfig config;
  if (!node["train"])
    reader.fail(node, joinKey(path, "train"),
                "missing; name the training file, or generate data with 'synthetic: reverse_copy'");
  const YAML::Node train = node["train"];
  if (train.IsSequence()) {
    // Several files, read as one text: the training part of a corpus kept in pieces.
    if (train.size() == 0) reader.fail(train, joinKey(path, "train"), "is an empty list");
    for (size_t i = 0; i < train.size(); ++i) {
      const std::string key = joinKey(path, "train") + "[" + std::to_string(i) + "]";
      if (!train[i].IsScalar()) reader.fail(train[i], key, "expected a file name");
      if (train[i].Scalar().empty()) reader.fail(train[i], key, "is empty");
      (i == 0 ? config.train : config.moreTrain.emplace_back()) = train[i].Scalar();
    }
  } else {
    config.train = reader.text(node, path, "train", "");
    if (config.train.empty()) reader.fail(train, joinKey(path, "train"), "is empty");
  }
  config.valid = reader.text(node, path, "valid", "");
  config.test = reader.text(node, path, "test", "");
  for (const char* key : {"valid", "test"}) {
    if (node[key] && reader.text(node, path, key, "").empty())
      reader.fail(node[key], joinKey(path, key), "is empty; give a file or leave the key out");
  }
  // Two explicit files, or none and a split by fractions: one file alone is ambiguous.
  if (config.valid.empty() != config.test.empty()) {
    const char* given = config.valid.empty() ? "test" : "valid";
    const char* missing = config.valid.empty() ? "valid" : "test";
    reader.fail(node[given], joinKey(path, given),
                std::string("is given without '") + missing +
                    "'; give both files, or neither to split the training file by fractions");
  }
  const bool files = !config.valid.empty();
  for (const char* key : {"valid_fraction", "test_fraction"}) {
    if (files && node[key])
      reader.fail(node[key], joinKey(path, key),
                  "applies only when 'valid' and 'test' are not given");
  }
  const std::string format = reader.choice(node, path, "format", "auto", kFormatNames);
  config.format = formatFromName(format);
  config.validFraction =
      reader.number(node, path, "valid_fraction", config.validFraction, 0.0, 0.5, false);
  config.testFraction =
      reader.number(node, path, "test_fraction", config.testFraction, 0.0, 0.5, false);
  if (config.validFraction + config.testFraction >= 1.0) {  // unreachable while each is < 0.5
    reader.fail(node, joinKey(path, "test_fraction"),
                "valid_fraction + test_fraction must leave something to train on");
  }
  config.maxSymbols =
      reader.integer(node, path, "max_symbols", 0, 0, std::numeric_limits<int64_t>::max());
  if (config.maxSymbols == 1) {
    reader.fail(node["max_symbols"], joinKey(path, "max_symbols"),
                "1 leaves no symbol to predict; use 0 (all) or at least 2");
  }
  config.minCount = reader.integer(node, path, "min_count", 1, 1, 1'000'000'000);
  const std::string vocabulary = reader.choice(node, path, "vocabulary", "auto", kVocabularyNames);
  config.vocabulary = static_cast<VocabularySource>(
      std::find(kVocabularyNames.begin(), kVocabularyNames.end(), vocabulary) -
      kVocabularyNames.begin());
  if (const YAML::Node words = node["word_counts"]) {
    const std::string key = joinKey(path, "word_counts");
    reader.expectMap(words, key, {"valid", "test"});
    config.validWords =
        reader.integer(words, key, "valid", 0, 1, std::numeric_limits<int64_t>::max());
    config.testWords =
        reader.integer(words, key, "test", 0, 1, std::numeric_limits<int64_t>::max());
  }
  return config;
}

void emitDataSection(YAML::Emitter& out, const DataConfig& config) {
  out << YAML::BeginMap;
  if (isLongRangeProblem(config.synthetic)) {
    const ProblemConfig& problem = config.problem;
    out << YAML::Key << "synthetic" << YAML::Value << syntheticTaskName(config.synthetic);
    out << YAML::Key << "problem" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "length" << YAML::Value << problem.length;
    out << YAML::Key << "train" << YAML::Value << problem.trainSequences;
    out << YAML::Key << "valid" << YAML::Value << problem.validSequences;
    out << YAML::Key << "test" << YAML::Value << problem.testSequences;
    out << YAML::Key << "seed" << YAML::Value << problem.seed;
    out << YAML::EndMap << YAML::EndMap;
    return;
  }
  if (config.synthetic != SyntheticTask::None) {
    const CopyTaskConfig& copy = config.copy;
    out << YAML::Key << "synthetic" << YAML::Value << syntheticTaskName(config.synthetic);
    out << YAML::Key << "copy" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "vocabulary" << YAML::Value << copy.vocabulary;
    out << YAML::Key << "length" << YAML::Value << copy.length;
    out << YAML::Key << "train_examples" << YAML::Value << copy.trainExamples;
    out << YAML::Key << "valid_examples" << YAML::Value << copy.validExamples;
    out << YAML::Key << "test_examples" << YAML::Value << copy.testExamples;
    out << YAML::Key << "seed" << YAML::Value << copy.seed;
    out << YAML::EndMap << YAML::EndMap;
    return;
  }
  if (config.moreTrain.empty()) {
    out << YAML::Key << "train" << YAML::Value << config.train;
  } else {
    out << YAML::Key << "train" << YAML::Value << YAML::BeginSeq;
    for (const std::string& file : trainFiles(config)) out << file;
    out << YAML::EndSeq;
  }
  if (!config.valid.empty() || !config.test.empty()) {
    out << YAML::Key << "valid" << YAML::Value << config.valid;
    out << YAML::Key << "test" << YAML::Value << config.test;
  }
  out << YAML::Key << "format" << YAML::Value << corpusFormatName(config.format);
  if (config.valid.empty() && config.test.empty()) {
    out << YAML::Key << "valid_fraction" << YAML::Value << config.validFraction;
    out << YAML::Key << "test_fraction" << YAML::Value << config.testFraction;
  }
  out << YAML::Key << "max_symbols" << YAML::Value << config.maxSymbols;
  out << YAML::Key << "min_count" << YAML::Value << config.minCount;
  if (config.vocabulary != VocabularySource::Auto)
    out << YAML::Key << "vocabulary" << YAML::Value << vocabularySourceName(config.vocabulary);
  if (config.validWords > 0 || config.testWords > 0) {
    out << YAML::Key << "word_counts" << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (config.validWords > 0) out << YAML::Key << "valid" << YAML::Value << config.validWords;
    if (config.testWords > 0) out << YAML::Key << "test" << YAML::Value << config.testWords;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

}  // namespace mrnn::engine
