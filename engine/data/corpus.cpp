#include "engine/data/corpus.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <sstream>
#include <vector>

#include "engine/data/corpus_reader.h"
#include "engine/data/mapped_file.h"
#include "engine/data/reverse_copy_task.h"
#include "engine/data/utf8.h"

namespace mrnn::engine {
namespace {

std::string resolvePath(const std::string& projectDir, const std::string& path) {
  const std::filesystem::path file(path);
  if (file.is_absolute() || projectDir.empty()) return file.lexically_normal().string();
  return (std::filesystem::path(projectDir) / file).lexically_normal().string();
}

std::string describeFraction(double fraction) {
  std::ostringstream out;
  out << fraction * 100.0 << "%";
  return out.str();
}

// DataConfig can also be filled in by code, past the YAML parser's checks.
void checkConfig(const DataConfig& config) {
  if (config.train.empty()) throw DataError("data: no training file (data.train) given");
  if (config.valid.empty() != config.test.empty())
    throw DataError("data: give both a valid and a test file, or neither (" +
                    (config.valid.empty() ? config.test : config.valid) +
                    " is the only one given)");
  const bool fractionsOk = config.validFraction >= 0.0 && config.validFraction < 0.5 &&
                           config.testFraction >= 0.0 && config.testFraction < 0.5;
  if (!fractionsOk) throw DataError("data: valid_fraction and test_fraction must lie in [0, 0.5)");
  if (config.maxSymbols < 0 || config.maxSymbols == 1)
    throw DataError("data: max_symbols " + std::to_string(config.maxSymbols) +
                    " would leave no symbol to predict; use 0 (all) or at least 2");
  if (config.minCount < 1) throw DataError("data: min_count must be at least 1");
}

CorpusSplit makeSplit(TokenStream tokens, const std::string& source) {
  CorpusSplit split;
  split.tokens = std::move(tokens);
  split.source = source;
  return split;
}

CorpusReader openReader(const std::string& path, CorpusFormat format, InputLevel level) {
  return CorpusReader(std::make_shared<const MappedFile>(path), resolveCorpusFormat(format, path),
                      level);
}

int64_t countNonEmpty(const CorpusReader& reader, const std::string& path) {
  const int64_t count = reader.countSymbols();
  if (count == 0) throw DataError(path + ": no symbols in the file (only whitespace?)");
  return count;
}

// The splits of a synthetic task. The YAML parser checks all of this with locations; a config
// filled in by code gets the same refusals here.
Corpus generateCorpus(const DataConfig& config, InputLevel level) {
  const std::string name = syntheticTaskName(config.synthetic);
  if (level != InputLevel::Word)
    throw DataError("data: the " + name +
                    " task is word level (tokens t0, t1, ..., a marker and <eos>); the model "
                    "reads '" +
                    inputLevelName(level) + "'");
  for (const std::string* file : {&config.train, &config.valid, &config.test}) {
    if (!file->empty())
      throw DataError("data: " + name + " generates its data; it cannot also read '" + *file + "'");
  }
  const CopyTaskConfig& copy = config.copy;
  if (copy.trainExamples < 1 || copy.validExamples < 1 || copy.testExamples < 1)
    throw DataError("data: " + name + " needs at least one example in each split (train " +
                    std::to_string(copy.trainExamples) + ", valid " +
                    std::to_string(copy.validExamples) + ", test " +
                    std::to_string(copy.testExamples) + ")");
  ReverseCopyTask task = [&] {
    try {
      return ReverseCopyTask(copy);
    } catch (const std::invalid_argument& error) {
      throw DataError(std::string("data: ") + error.what());
    }
  }();
  Corpus corpus;
  corpus.vocabulary = task.vocabulary();
  corpus.train = task.split(CopyStream::Train, copy.trainExamples);
  corpus.valid = task.split(CopyStream::Valid, copy.validExamples);
  corpus.test = task.split(CopyStream::Test, copy.testExamples);
  return corpus;
}

}  // namespace

int64_t countWords(const TokenStream& tokens, const Vocabulary& vocabulary) {
  // Which ids end a word: <eos> at word level, ASCII whitespace at byte and char level.
  std::vector<uint8_t> separator(static_cast<size_t>(vocabulary.size()), 0);
  const bool words = vocabulary.level() == InputLevel::Word;
  for (int64_t id = 0; id < vocabulary.size(); ++id) {
    const std::string& symbol = vocabulary.symbol(id);
    separator[static_cast<size_t>(id)] =
        words ? id == vocabulary.eosId()
              : symbol.size() == 1 && utf8::isSpace(static_cast<uint8_t>(symbol[0]));
  }
  constexpr int64_t kChunk = 1 << 16;
  std::vector<int64_t> ids(static_cast<size_t>(std::min(kChunk, tokens.size())));
  int64_t count = 0;
  bool inWord = false;
  for (int64_t start = 0; start < tokens.size(); start += kChunk) {
    const int64_t n = std::min(kChunk, tokens.size() - start);
    tokens.copy(start, n, ids.data());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t id = ids[static_cast<size_t>(i)];
      const bool isSeparator = id < vocabulary.size() && separator[static_cast<size_t>(id)];
      if (words) {
        count += isSeparator ? 0 : 1;
      } else {
        count += !isSeparator && !inWord ? 1 : 0;
        inWord = !isSeparator;
      }
    }
  }
  return count;
}

CorpusSplit loadSplit(const std::string& path, CorpusFormat format, const Vocabulary& vocabulary) {
  const CorpusReader reader = openReader(path, format, vocabulary.level());
  CorpusSplit split = makeSplit(reader.encode(vocabulary, countNonEmpty(reader, path)), path);
  split.words = countWords(split.tokens, vocabulary);
  return split;
}

Corpus loadCorpus(const DataConfig& config, InputLevel level, const std::string& projectDir) {
  if (config.synthetic != SyntheticTask::None) return generateCorpus(config, level);
  checkConfig(config);
  const std::string trainPath = resolvePath(projectDir, config.train);
  Corpus corpus;
  if (!config.valid.empty()) {
    const CorpusReader reader = openReader(trainPath, config.format, level);
    const int64_t count = countNonEmpty(reader, trainPath);
    corpus.vocabulary = reader.buildVocabulary(count, config.minCount);
    corpus.train = makeSplit(reader.encode(corpus.vocabulary, count), trainPath);
    corpus.valid =
        loadSplit(resolvePath(projectDir, config.valid), config.format, corpus.vocabulary);
    corpus.test = loadSplit(resolvePath(projectDir, config.test), config.format, corpus.vocabulary);
  } else {
    // One file: count, take the vocabulary from the train part, encode it all once and cut
    // the splits as views of the same ids.
    const CorpusReader reader = openReader(trainPath, config.format, level);
    const int64_t total = countNonEmpty(reader, trainPath);
    const auto share = [&](double fraction, const char* name) {
      const auto count = static_cast<int64_t>(std::floor(static_cast<double>(total) * fraction));
      if (fraction > 0.0 && count == 0)
        throw DataError(trainPath + ": too short to split off the " + name + " split (" +
                        describeFraction(fraction) + " of " + std::to_string(total) +
                        " symbols is empty)");
      return count;
    };
    const int64_t validCount = share(config.validFraction, "valid");
    const int64_t testCount = share(config.testFraction, "test");
    const int64_t trainCount = total - validCount - testCount;
    if (trainCount <= 0) throw DataError(trainPath + ": no symbols left for the train split");
    corpus.vocabulary = reader.buildVocabulary(trainCount, config.minCount);
    const TokenStream all = reader.encode(corpus.vocabulary, total);
    corpus.train = makeSplit(all.slice(0, trainCount), trainPath);
    corpus.valid = makeSplit(all.slice(trainCount, validCount), trainPath);
    corpus.test = makeSplit(all.slice(trainCount + validCount, testCount), trainPath);
  }
  for (CorpusSplit* split : {&corpus.train, &corpus.valid, &corpus.test}) {
    const bool sliced = config.maxSymbols > 0 && split->tokens.size() > config.maxSymbols;
    if (sliced) split->tokens = split->tokens.slice(0, config.maxSymbols);
    if (sliced || split->words == 0) split->words = countWords(split->tokens, corpus.vocabulary);
  }
  return corpus;
}

}  // namespace mrnn::engine
