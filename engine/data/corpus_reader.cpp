#include "engine/data/corpus_reader.h"

#include <cstdio>
#include <vector>

#include "engine/data/char_scanner.h"
#include "engine/data/data_error.h"
#include "engine/data/id_buffer.h"
#include "engine/data/symbol_table.h"
#include "engine/data/utf8.h"
#include "engine/data/word_counter.h"
#include "engine/data/word_scanner.h"

namespace mrnn::engine {
namespace {
constexpr uint32_t kCodePoints = 0x110000;
}  // namespace

CorpusReader::CorpusReader(std::shared_ptr<const MappedFile> file, CorpusFormat format,
                           InputLevel level)
    : file_(std::move(file)), format_(format), level_(level) {
  const std::string& path = file_->path();
  if (file_->size() == 0) throw DataError(path + ": empty file");
  if (level_ == InputLevel::Char && format_ == CorpusFormat::Raw)
    throw DataError(path +
                    ": format raw is read as bytes, not characters; use level: byte, or "
                    "format: text for UTF-8 text");
  if (level_ == InputLevel::Word && format_ == CorpusFormat::PtbChar)
    throw DataError(path + ": format ptb-char holds characters, not words; use level: char");
}

bool CorpusReader::mapsBytes() const {
  return level_ == InputLevel::Byte && format_ != CorpusFormat::PtbChar;
}

int64_t CorpusReader::countSymbols() const {
  int64_t count = 0;
  if (mapsBytes()) return file_->size();
  if (level_ == InputLevel::Word) {
    WordScanner(*file_, format_ != CorpusFormat::Raw).scan([&](std::string_view, int64_t) {
      ++count;
      return true;
    });
    return count;
  }
  // Characters, or the bytes of ptb-char characters at byte level.
  const bool bytes = level_ == InputLevel::Byte;
  CharScanner(*file_, format_ == CorpusFormat::PtbChar).scan([&](uint32_t codePoint, int64_t) {
    count += bytes ? utf8::length(codePoint) : 1;
    return true;
  });
  return count;
}

Vocabulary CorpusReader::buildVocabulary(int64_t prefix, int64_t minCount) const {
  if (level_ == InputLevel::Byte) return Vocabulary::bytes();
  SymbolTally counts;
  tally(prefix, counts);
  return vocabularyOf(level_, counts, minCount);
}

void CorpusReader::tally(int64_t prefix, SymbolTally& into) const {
  if (level_ == InputLevel::Byte || prefix <= 0) return;
  int64_t seen = 0;
  if (level_ == InputLevel::Word) {
    WordScanner(*file_, format_ != CorpusFormat::Raw).scan([&](std::string_view word, int64_t) {
      into.words.add(word);
      return ++seen < prefix;
    });
    return;
  }
  // A bit per code point (136 KB) rather than a string per symbol.
  if (into.chars.size() < kCodePoints) into.chars.resize(kCodePoints, false);
  CharScanner(*file_, format_ == CorpusFormat::PtbChar).scan([&](uint32_t codePoint, int64_t) {
    into.chars[codePoint] = true;
    return ++seen < prefix;
  });
}

Vocabulary CorpusReader::vocabularyOf(InputLevel level, const SymbolTally& tally,
                                      int64_t minCount) {
  if (level == InputLevel::Byte) return Vocabulary::bytes();
  if (level == InputLevel::Word) return tally.words.build(minCount);
  std::vector<std::string> symbols;  // ascending code points: the vocabulary's order
  for (uint32_t codePoint = 0; codePoint < tally.chars.size(); ++codePoint) {
    if (tally.chars[codePoint]) symbols.push_back(utf8::encode(codePoint));
  }
  return Vocabulary::fromSymbols(InputLevel::Char, std::move(symbols));
}

TokenStream CorpusReader::encode(const Vocabulary& vocabulary, int64_t count) const {
  if (mapsBytes()) return TokenStream::fromMappedFile(file_);
  IdBuffer ids(count, vocabulary.size());
  int64_t next = 0;
  // A file that changes between the passes must not write past the ids counted for it.
  auto put = [&](uint32_t id) {
    if (next >= count) {
      file_->checkUnchanged();
      throw DataError(file_->path() + ": changed while it was being read");
    }
    ids.set(next++, id);
  };
  if (level_ == InputLevel::Byte) {  // ptb-char decoded to the bytes of its characters
    CharScanner(*file_, true).scan([&](uint32_t codePoint, int64_t) {
      for (const char byte : utf8::encode(codePoint)) put(static_cast<uint8_t>(byte));
      return true;
    });
  } else if (level_ == InputLevel::Word) {
    const SymbolTable table(vocabulary);
    WordScanner(*file_, format_ != CorpusFormat::Raw)
        .scan([&](std::string_view word, int64_t offset) {
          int64_t id = table.findWord(word);
          if (id < 0) id = table.unkId();
          if (id < 0) throwUnknown(word.empty() ? "<eos>" : std::string(word), offset);
          put(static_cast<uint32_t>(id));
          return true;
        });
  } else {
    const SymbolTable table(vocabulary);
    CharScanner(*file_, format_ == CorpusFormat::PtbChar)
        .scan([&](uint32_t codePoint, int64_t offset) {
          int64_t id = table.findChar(codePoint);
          if (id < 0) id = table.unkId();
          if (id < 0) throwUnknown(utf8::encode(codePoint), offset);
          put(static_cast<uint32_t>(id));
          return true;
        });
  }
  file_->checkUnchanged();
  if (next != count) throw DataError(file_->path() + ": changed while it was being read");
  return ids.finish();
}

void CorpusReader::throwUnknown(const std::string& symbol, int64_t offset) const {
  file_->checkUnchanged();  // zeros read past the end of a shrunk file are no symbol
  char codePoint[16] = "";
  const auto* begin = reinterpret_cast<const uint8_t*>(symbol.data());
  uint32_t value = 0;
  if (level_ == InputLevel::Char && utf8::decode(begin, begin + symbol.size(), value) > 0)
    std::snprintf(codePoint, sizeof codePoint, " (U+%04X)", value);
  const auto [file, fileOffset] = file_->locate(offset);
  throw DataError(file + ": symbol " + printableSymbol(symbol) + codePoint + " at byte offset " +
                  std::to_string(fileOffset) +
                  " is not in the vocabulary of the training split, which has no <unk> "
                  "(data.vocabulary: train; 'all' takes the vocabulary from every split, "
                  "'train_unk' reads unseen symbols as <unk>)");
}

}  // namespace mrnn::engine
