#pragma once

#include <cstdint>
#include <string>

#include "engine/config/data_config.h"
#include "engine/config/model_config.h"
#include "engine/data/data_error.h"
#include "engine/data/mapped_file.h"
#include "engine/data/token_stream.h"
#include "engine/data/vocabulary.h"

namespace mrnn::engine {

// DataError (engine/data/data_error.h): a corpus problem; the message names the file and
// what is wrong with it (missing, empty, binary read as text, invalid UTF-8 at byte N, ...).

struct CorpusSplit {
  TokenStream tokens;
  // Which targets count in the loss: empty, every one (all corpus files); else one 0/1 per
  // token of `tokens`, 1 where that token, predicted from those before it, is scored (the
  // reverse copy task scores only the reversed half). Sliced together with `tokens`.
  TokenStream targetMask;
  // Words for Krause eq. 23, counted as the word-level benchmarks count them, so that a
  // character model's word perplexity and a word model's are one measure: word level, every
  // token, <eos> included; byte and char level, the runs of symbols other than ASCII
  // whitespace plus one <eos> per line. ptb-char ('_' a space, "\n" a line end) thus gives
  // PTB's token count (929,589 for ptb.char.train.txt as for ptb.train.txt). `data.word_counts`
  // replaces it for valid and test (a benchmark tokenised otherwise, as WikiText-2's 245,569
  // test words for its 1,256,449 bytes).
  int64_t words = 0;
  // data.vocabulary: train_unk at char level: the symbols read as <unk> because the training
  // split lacks them (reported, so that a researcher knows what the score leaves out).
  int64_t unknownSymbols = 0;
  std::string source;  // the file it came from, for messages
};

struct Corpus {
  Vocabulary vocabulary;
  CorpusSplit train;
  CorpusSplit valid;
  CorpusSplit test;
};

// Reads the corpus of a project: `projectDir` resolves relative paths. The vocabulary comes
// from data.vocabulary's source (VocabularySource; bytes: always 256). Throws DataError. A
// synthetic data set (data.synthetic) is generated instead of read (ReverseCopyTask: word level
// only, its vocabulary fixed by the config, every split with a target mask); the rest applies to
// files. Without valid/test files, the one file is split by symbols: valid and test take floor(N *
// fraction) symbols each from its end (train | valid | test); a fraction of 0 gives an empty split
// (the only way a split may be empty). Byte level keeps the file mapped and its bytes are the ids
// (ptb-char files are decoded to the bytes of their characters instead). Raw cannot be read at char
// level, nor ptb-char at word level. max_symbols keeps the first N symbols of each split.
// `stop` is asked between chunks of a large file: ReadingStopped ends the reading once it says
// so (a command's Ctrl-C is honoured while a 200 MB corpus is read).
Corpus loadCorpus(const DataConfig& config, InputLevel level, const std::string& projectDir,
                  const StopCheck& stop = {});

// The vocabulary size of generated data, known from the config alone (the reverse copy task:
// its V tokens, the marker and <eos>; a long-range problem: its symbols); 0 for corpus files.
int64_t generatedVocabularySize(const DataConfig& config);

// Reads one more file with an existing vocabulary (evaluation on other text). Symbols
// outside the vocabulary become <unk>, or throw DataError naming the symbol and position.
CorpusSplit loadSplit(const std::string& path, CorpusFormat format, const Vocabulary& vocabulary,
                      const StopCheck& stop = {});

// The whitespace-separated words of a token stream's text, as CorpusSplit::words counts them.
int64_t countWords(const TokenStream& tokens, const Vocabulary& vocabulary);

}  // namespace mrnn::engine
