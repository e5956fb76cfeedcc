#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/config/data_config.h"
#include "engine/config/model_config.h"
#include "engine/data/mapped_file.h"
#include "engine/data/token_stream.h"
#include "engine/data/vocabulary.h"
#include "engine/data/word_counter.h"

namespace mrnn::engine {

// Decodes one corpus file at one symbol level, in sequential passes over its mapping: count
// the symbols, build a vocabulary from a prefix of them, encode them all into narrow ids.
// Counting first sizes the id array exactly, so loading never holds more than the mapping
// page being read and the ids (byte level: the mapping alone).
class CorpusReader {
 public:
  // `format` must be resolved (not Auto). Throws DataError for an empty file and for a level
  // the format cannot be read at (raw at char level, ptb-char at word level).
  CorpusReader(std::shared_ptr<const MappedFile> file, CorpusFormat format, InputLevel level);

  int64_t countSymbols() const;
  // From the first `prefix` symbols (bytes: always the 256 bytes).
  Vocabulary buildVocabulary(int64_t prefix, int64_t minCount) const;
  // What buildVocabulary reads, added to a tally that several files can share (the
  // vocabulary of every split): code points at char level, words at word level.
  struct SymbolTally {
    std::vector<bool> chars;
    WordCounter words;
  };
  void tally(int64_t prefix, SymbolTally& into) const;
  static Vocabulary vocabularyOf(InputLevel level, const SymbolTally& tally, int64_t minCount);
  // All `count` symbols (from countSymbols()). A symbol outside the vocabulary becomes <unk>,
  // or is a DataError naming it, the file and the byte offset.
  TokenStream encode(const Vocabulary& vocabulary, int64_t count) const;

 private:
  bool mapsBytes() const;  // byte level straight from the file: the ids are the bytes
  [[noreturn]] void throwUnknown(const std::string& symbol, int64_t offset) const;

  std::shared_ptr<const MappedFile> file_;
  CorpusFormat format_;
  InputLevel level_;
};

}  // namespace mrnn::engine
