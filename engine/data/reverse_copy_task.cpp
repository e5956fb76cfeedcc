#include "engine/data/reverse_copy_task.h"

#include <algorithm>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "engine/data/id_buffer.h"
#include "engine/data/portable_random.h"
#include "engine/io/atomic_file.h"
#include "engine/io/output_file.h"

namespace mrnn::engine {
namespace {

const char* const kEos = "<eos>";
const char* const kTokenPrefix = "t";

// Calls `visit(input)` with each of the first `count` examples' L input tokens in turn, one
// example in memory at a time (the paper's training set is 25 million input tokens).
template <typename Visit>
void forEachExample(const CopyTaskConfig& config, CopyStream stream, int64_t count, Visit&& visit) {
  if (count < 1)
    throw std::invalid_argument("reverse copy: the number of examples must be at least 1, got " +
                                std::to_string(count));
  std::mt19937_64 random(splitmix64(config.seed ^ splitmix64(static_cast<uint64_t>(stream) + 1)));
  const auto bound = static_cast<uint64_t>(config.vocabulary);
  std::vector<int64_t> input(static_cast<size_t>(config.length));
  for (int64_t e = 0; e < count; ++e) {
    for (auto& id : input) id = uniformBelow(random, bound);
    visit(input.data());
  }
}

}  // namespace

const char* const ReverseCopyTask::kMarker = "<go>";

ReverseCopyTask::ReverseCopyTask(const CopyTaskConfig& config) : config_(config) {
  if (config.vocabulary < 1 || config.length < 1)
    throw std::invalid_argument("reverse copy: vocabulary and length must be at least 1 (got " +
                                std::to_string(config.vocabulary) + " and " +
                                std::to_string(config.length) + ")");
  vocabulary_ = vocabularyFor(config.vocabulary);
}

Vocabulary ReverseCopyTask::vocabularyFor(int64_t tokens) {
  std::vector<std::string> symbols;
  symbols.reserve(static_cast<size_t>(tokens + 2));
  for (int64_t t = 0; t < tokens; ++t) symbols.push_back(kTokenPrefix + std::to_string(t));
  symbols.emplace_back(kMarker);
  symbols.emplace_back(kEos);
  return Vocabulary::fromSymbols(InputLevel::Word, std::move(symbols));
}

int64_t ReverseCopyTask::tokensOf(const Vocabulary& vocabulary) {
  const int64_t tokens = vocabulary.size() - 2;
  if (vocabulary.level() != InputLevel::Word || tokens < 1) return -1;
  return vocabularyFor(tokens).fingerprint() == vocabulary.fingerprint() ? tokens : -1;
}

std::vector<int64_t> ReverseCopyTask::drawInputs(CopyStream stream, int64_t count) const {
  std::vector<int64_t> ids;
  ids.reserve(static_cast<size_t>(std::max<int64_t>(count, 0) * config_.length));
  forEachExample(config_, stream, count,
                 [&](const int64_t* input) { ids.insert(ids.end(), input, input + length()); });
  return ids;
}

CorpusSplit ReverseCopyTask::split(CopyStream stream, int64_t count) const {
  const int64_t length = config_.length;
  const int64_t size = exampleSize();
  IdBuffer tokens(std::max<int64_t>(count, 0) * size, vocabulary_.size());
  IdBuffer mask(std::max<int64_t>(count, 0) * size, 2);
  int64_t start = 0;
  forEachExample(config_, stream, count, [&](const int64_t* input) {
    for (int64_t i = 0; i < length; ++i) {
      tokens.set(start + i, static_cast<uint32_t>(input[i]));
      tokens.set(start + length + 1 + i, static_cast<uint32_t>(input[length - 1 - i]));
      mask.set(start + i, 0);
      mask.set(start + length + 1 + i, 1);
    }
    tokens.set(start + length, static_cast<uint32_t>(markerId()));
    mask.set(start + length, 0);
    tokens.set(start + size - 1, static_cast<uint32_t>(eosId()));
    mask.set(start + size - 1, 0);
    start += size;
  });
  CorpusSplit split;
  split.tokens = tokens.finish();
  split.targetMask = mask.finish();
  static const char* const kNames[] = {"train", "valid", "test", "fresh"};
  split.source = std::string("reverse copy (") + kNames[static_cast<int>(stream)] + ", seed " +
                 std::to_string(config_.seed) + ")";
  return split;
}

std::string ReverseCopyTask::text(CopyStream stream, int64_t count) const {
  const int64_t length = config_.length;
  std::string out;
  // 2L + 1 words of up to 1 + digits(V) characters and a space or line end each.
  const auto word = static_cast<int64_t>(std::to_string(tokens()).size()) + 2;
  out.reserve(static_cast<size_t>(std::max<int64_t>(count, 0) * (2 * length + 1) * word));
  forEachExample(config_, stream, count, [&](const int64_t* input) {
    for (int64_t i = 0; i < length; ++i) out += vocabulary_.symbol(input[i]) + ' ';
    out += kMarker;
    for (int64_t i = length - 1; i >= 0; --i) out += ' ' + vocabulary_.symbol(input[i]);
    out += '\n';
  });
  return out;
}

std::vector<std::string> writeReverseCopyFiles(const CopyTaskConfig& config,
                                               const std::string& folder, OutputRules rules) {
  const ReverseCopyTask task(config);
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw std::runtime_error("cannot create '" + folder + "': " + error.message());
  const std::filesystem::path base(folder);
  std::string symbols;
  for (int64_t id = 0; id < task.vocabulary().size(); ++id)
    symbols += task.vocabulary().symbol(id) + '\n';
  const struct {
    const char* file;
    CopyStream stream;
    int64_t count;
  } splits[] = {{"train.txt", CopyStream::Train, config.trainExamples},
                {"valid.txt", CopyStream::Valid, config.validExamples},
                {"test.txt", CopyStream::Test, config.testExamples}};
  const std::string vocabularyPath = (base / "vocab.txt").string();
  // Copy data written earlier: splits whose first line holds the marker, a vocabulary that
  // starts with the same symbols.
  rules.ownOutput = [&](const std::string& path) {
    if (path == vocabularyPath) return startsLike(path, symbols);
    const std::string head = fileHead(path, 4096);
    return head.substr(0, head.find('\n')).find(ReverseCopyTask::kMarker) != std::string::npos;
  };
  for (const auto& split : splits) checkOutputPath((base / split.file).string(), rules);
  checkOutputPath(vocabularyPath, rules);
  std::vector<std::string> written;
  for (const auto& split : splits) {
    const std::string path = (base / split.file).string();
    writeFileAtomically(path, task.text(split.stream, split.count));
    written.push_back(path);
  }
  writeFileAtomically(vocabularyPath, symbols);
  written.push_back(vocabularyPath);
  return written;
}

}  // namespace mrnn::engine
