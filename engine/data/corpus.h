#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/config/data_config.h"
#include "engine/config/model_config.h"
#include "engine/data/token_stream.h"
#include "engine/data/vocabulary.h"

namespace mrnn::engine {

// A corpus problem: the message names the file and what is wrong with it (missing, empty,
// binary read as text, invalid UTF-8 at byte N, ...).
class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CorpusSplit {
  TokenStream tokens;
  int64_t words = 0;  // whitespace-separated words in the split's text (Krause eq. 23)
  std::string source; // the file it came from, for messages
};

struct Corpus {
  Vocabulary vocabulary;
  CorpusSplit train;
  CorpusSplit valid;
  CorpusSplit test;
};

// Reads the corpus of a project: `projectDir` resolves relative paths. The vocabulary comes
// from the training split (bytes: always 256). Throws DataError.
Corpus loadCorpus(const DataConfig& config, InputLevel level, const std::string& projectDir);

// Reads one more file with an existing vocabulary (evaluation on other text). Symbols
// outside the vocabulary become <unk>, or throw DataError naming the symbol and position.
CorpusSplit loadSplit(const std::string& path, CorpusFormat format, const Vocabulary& vocabulary);

}  // namespace mrnn::engine
