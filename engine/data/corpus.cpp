#include "engine/data/corpus.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <sstream>
#include <vector>

#include "engine/data/corpus_reader.h"
#include "engine/data/long_range_problem.h"
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

CorpusReader openReader(const std::string& path, CorpusFormat format, InputLevel level,
                        const StopCheck& stop) {
  auto file = std::make_shared<MappedFile>(path);
  file->setStopCheck(stop);
  return CorpusReader(std::move(file), resolveCorpusFormat(format, path), level);
}

// The training text: one file mapped, or several joined (their format is the first's).
CorpusReader openTrainReader(const DataConfig& config, InputLevel level,
                             const std::string& projectDir, std::string& described,
                             const StopCheck& stop) {
  const std::string first = resolvePath(projectDir, config.train);
  if (config.moreTrain.empty()) {
    described = first;
    return openReader(first, config.format, level, stop);
  }
  std::vector<std::string> paths;
  for (const std::string& file : trainFiles(config)) paths.push_back(resolvePath(projectDir, file));
  auto joined = std::make_shared<MappedFile>(paths);
  joined->setStopCheck(stop);
  described = joined->path();
  return CorpusReader(std::move(joined), resolveCorpusFormat(config.format, first), level);
}

int64_t countNonEmpty(const CorpusReader& reader, const std::string& path) {
  const int64_t count = reader.countSymbols();
  if (count == 0) throw DataError(path + ": no symbols in the file (only whitespace?)");
  return count;
}

// The splits of a synthetic task. The YAML parser checks all of this with locations; a config
// filled in by code gets the same refusals here.
// A long-range problem's sequences are not one text (each is read alone, and its targets are
// not its next inputs): its "corpus" is the symbols its first sequences read, one after
// another, for a look at the data (the data panel's histogram and preview). Training reads
// the problem itself (ProblemBatcher); its held-out figures come from the trainer.
Corpus problemPreview(const DataConfig& config) {
  const LongRangeProblem problem = [&] {
    try {
      return LongRangeProblem(config.synthetic, config.problem);
    } catch (const std::invalid_argument& error) {
      throw DataError(error.what());  // it names its key
    }
  }();
  Corpus corpus;
  corpus.vocabulary = problem.vocabulary();
  const auto preview = [&](ProblemSplit split, CorpusSplit& out) {
    std::vector<int64_t> ids;
    const int64_t count = std::min<int64_t>(problem.sequences(split), 200);
    for (int64_t i = 0; i < count; ++i) {
      const ProblemSequence sequence = problem.sequence(split, i);
      ids.insert(ids.end(), sequence.inputs.begin(), sequence.inputs.end());
    }
    out.tokens = TokenStream::fromIds(ids, corpus.vocabulary.size());
    out.source = "generated " + syntheticTaskName(config.synthetic);
  };
  preview(ProblemSplit::Train, corpus.train);
  preview(ProblemSplit::Valid, corpus.valid);
  preview(ProblemSplit::Test, corpus.test);
  return corpus;
}

Corpus generateCorpus(const DataConfig& config, InputLevel level) {
  const std::string name = syntheticTaskName(config.synthetic);
  if (isLongRangeProblem(config.synthetic) && level == InputLevel::Word) {
    return problemPreview(config);
  }
  if (level != InputLevel::Word)
    throw DataError("data: the " + name + " task is word level (whole tokens); the model reads '" +
                    inputLevelName(level) + "'");
  if (!config.moreTrain.empty())
    throw DataError("data: " + name + " generates its data; it cannot also read '" +
                    config.moreTrain.front() + "'");
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

VocabularySource resolvedSource(VocabularySource source, InputLevel level) {
  if (source != VocabularySource::Auto) return source;
  return level == InputLevel::Char ? VocabularySource::All : VocabularySource::Train;
}

// A char vocabulary gains <unk> for train_unk (word vocabularies always have one).
Vocabulary withUnk(Vocabulary vocabulary, VocabularySource source) {
  if (source != VocabularySource::TrainUnk || vocabulary.level() != InputLevel::Char ||
      vocabulary.unkId() >= 0)
    return vocabulary;
  std::vector<std::string> symbols;
  for (int64_t id = 0; id < vocabulary.size(); ++id) symbols.push_back(vocabulary.symbol(id));
  symbols.emplace_back("<unk>");
  return Vocabulary::fromSymbols(InputLevel::Char, std::move(symbols));
}

// Calls visit(id) for each id of the stream, in order, reading it in bounded chunks.
template <typename Visit>
void forEachId(const TokenStream& tokens, Visit&& visit) {
  constexpr int64_t kChunk = 1 << 16;
  std::vector<int64_t> ids(static_cast<size_t>(std::min(kChunk, tokens.size())));
  for (int64_t start = 0; start < tokens.size(); start += kChunk) {
    const int64_t n = std::min(kChunk, tokens.size() - start);
    tokens.copy(start, n, ids.data());
    for (int64_t i = 0; i < n; ++i) visit(ids[static_cast<size_t>(i)]);
  }
}

int64_t countId(const TokenStream& tokens, int64_t id) {
  int64_t count = 0;
  if (id >= 0) forEachId(tokens, [&](int64_t each) { count += each == id ? 1 : 0; });
  return count;
}

}  // namespace

int64_t countWords(const TokenStream& tokens, const Vocabulary& vocabulary) {
  // Word level: every token is a word, <eos> included (the word-level benchmarks' count).
  // Byte and char level: runs of non-whitespace symbols, plus one <eos> per line: each "\n",
  // and the last line when it holds words and has none.
  if (vocabulary.level() == InputLevel::Word) return tokens.size();
  std::vector<uint8_t> kind(static_cast<size_t>(vocabulary.size()), 0);  // 1 space, 2 line end
  for (int64_t id = 0; id < vocabulary.size(); ++id) {
    const std::string& symbol = vocabulary.symbol(id);
    if (symbol.size() != 1) continue;
    const auto byte = static_cast<uint8_t>(symbol[0]);
    kind[static_cast<size_t>(id)] = byte == '\n' ? 2 : utf8::isSpace(byte) ? 1 : 0;
  }
  int64_t count = 0;
  bool inWord = false;
  bool lineHasWords = false;
  forEachId(tokens, [&](int64_t id) {
    const uint8_t k = id < vocabulary.size() ? kind[static_cast<size_t>(id)] : 0;
    if (k == 0 && !inWord) {
      ++count;
      lineHasWords = true;
    }
    inWord = k == 0;
    if (k == 2) {
      ++count;  // the line's <eos>
      lineHasWords = false;
    }
  });
  return count + (lineHasWords ? 1 : 0);
}

CorpusSplit loadSplit(const std::string& path, CorpusFormat format, const Vocabulary& vocabulary,
                      const StopCheck& stop) {
  const CorpusReader reader = openReader(path, format, vocabulary.level(), stop);
  CorpusSplit split = makeSplit(reader.encode(vocabulary, countNonEmpty(reader, path)), path);
  split.words = countWords(split.tokens, vocabulary);
  return split;
}

int64_t generatedVocabularySize(const DataConfig& config) {
  if (config.synthetic == SyntheticTask::ReverseCopy) return config.copy.vocabulary + 2;
  if (isLongRangeProblem(config.synthetic)) {
    try {
      return LongRangeProblem(config.synthetic, config.problem).vocabulary().size();
    } catch (const std::invalid_argument&) {
      return 0;  // a bad length: the trainer names it
    }
  }
  return 0;
}

Corpus loadCorpus(const DataConfig& config, InputLevel level, const std::string& projectDir,
                  const StopCheck& stop) {
  if (config.synthetic != SyntheticTask::None) return generateCorpus(config, level);
  checkConfig(config);
  std::string trainPath;  // the file, or the first of several and how many follow
  const CorpusReader reader = openTrainReader(config, level, projectDir, trainPath, stop);
  const VocabularySource source = resolvedSource(config.vocabulary, level);
  Corpus corpus;
  if (!config.valid.empty()) {
    const int64_t count = countNonEmpty(reader, trainPath);
    const std::string validPath = resolvePath(projectDir, config.valid);
    const std::string testPath = resolvePath(projectDir, config.test);
    if (source == VocabularySource::All && level != InputLevel::Byte) {
      CorpusReader::SymbolTally tally;
      reader.tally(count, tally);
      for (const std::string& path : {validPath, testPath}) {
        // Every symbol: no count first (loadSplit below counts, and finds an empty file).
        openReader(path, config.format, level, stop)
            .tally(std::numeric_limits<int64_t>::max(), tally);
      }
      corpus.vocabulary = CorpusReader::vocabularyOf(level, tally, config.minCount);
    } else {
      corpus.vocabulary = withUnk(reader.buildVocabulary(count, config.minCount), source);
    }
    corpus.train = makeSplit(reader.encode(corpus.vocabulary, count), trainPath);
    corpus.valid = loadSplit(validPath, config.format, corpus.vocabulary, stop);
    corpus.test = loadSplit(testPath, config.format, corpus.vocabulary, stop);
  } else {
    // One text: count, take the vocabulary (from the train part, or all of it), encode it all
    // once and cut the splits as views of the same ids.
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
    corpus.vocabulary =
        withUnk(reader.buildVocabulary(source == VocabularySource::All ? total : trainCount,
                                       config.minCount),
                source);
    const TokenStream all = reader.encode(corpus.vocabulary, total);
    corpus.train = makeSplit(all.slice(0, trainCount), trainPath);
    corpus.valid = makeSplit(all.slice(trainCount, validCount), trainPath);
    corpus.test = makeSplit(all.slice(trainCount + validCount, testCount), trainPath);
  }
  if (source == VocabularySource::TrainUnk && level == InputLevel::Char) {
    for (CorpusSplit* split : {&corpus.valid, &corpus.test})
      split->unknownSymbols = countId(split->tokens, corpus.vocabulary.unkId());
  }
  const std::pair<CorpusSplit*, int64_t> splits[] = {
      {&corpus.train, 0}, {&corpus.valid, config.validWords}, {&corpus.test, config.testWords}};
  for (const auto& [split, benchmarkWords] : splits) {
    const int64_t full = split->tokens.size();
    const bool sliced = config.maxSymbols > 0 && full > config.maxSymbols;
    if (sliced) split->tokens = split->tokens.slice(0, config.maxSymbols);
    if (benchmarkWords > 0) {
      // The benchmark's count, in proportion when only a prefix is kept.
      split->words = static_cast<int64_t>(std::llround(
          static_cast<double>(benchmarkWords) * static_cast<double>(split->tokens.size()) /
          static_cast<double>(std::max<int64_t>(1, full))));
    } else if (sliced || split->words == 0) {
      split->words = countWords(split->tokens, corpus.vocabulary);
    }
  }
  return corpus;
}

}  // namespace mrnn::engine
