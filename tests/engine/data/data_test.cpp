// The corpus data layer on the shared corpora, with figures known from the literature and
// from independent counts (Python's bytes.split() per split): PTB words and characters, tiny
// shakespeare at char and byte level, the 90/5/5 split, narrow storage.

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "data_fixtures.h"
#include "engine/data/corpus.h"
#include "engine/training/metrics.h"
#include "test_harness.h"

using namespace mrnn;
using engine::DataConfig;
using engine::InputLevel;

namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<int64_t> head(const engine::TokenStream& tokens, int64_t count) {
  std::vector<int64_t> ids(static_cast<size_t>(count));
  tokens.copy(0, count, ids.data());
  return ids;
}

DataConfig ptbFiles(const std::string& prefix) {
  DataConfig config;
  config.train = test::sharedCorpus("ptb/" + prefix + "train.txt");
  config.valid = test::sharedCorpus("ptb/" + prefix + "valid.txt");
  config.test = test::sharedCorpus("ptb/" + prefix + "test.txt");
  return config;
}

}  // namespace

MRNN_TEST(ptb_words_match_the_published_counts) {
  const auto corpus = engine::loadCorpus(ptbFiles("ptb."), InputLevel::Word, "");
  const auto& vocabulary = corpus.vocabulary;
  EXPECT_EQ(vocabulary.size(), int64_t{10000});
  EXPECT(vocabulary.level() == InputLevel::Word);
  EXPECT(vocabulary.eosId() >= 0);
  EXPECT(vocabulary.unkId() >= 0);
  // By frequency: the (50,770), <unk> (45,020), <eos> (42,068 lines), N (32,481).
  EXPECT_EQ(vocabulary.symbol(0), std::string("the"));
  EXPECT_EQ(vocabulary.symbol(1), std::string("<unk>"));
  EXPECT_EQ(vocabulary.symbol(2), std::string("<eos>"));
  EXPECT_EQ(vocabulary.symbol(3), std::string("N"));
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{929589});
  // Words for eq. 23 are the word-level benchmark's tokens, <eos> included: 887,521 words
  // and 42,068 line ends (the README of ../shared/data).
  EXPECT_EQ(corpus.train.words, int64_t{929589});
  EXPECT_EQ(corpus.valid.tokens.size(), int64_t{73760});
  EXPECT_EQ(corpus.valid.words, int64_t{73760});
  EXPECT_EQ(corpus.test.tokens.size(), int64_t{82430});
  EXPECT_EQ(corpus.test.words, int64_t{82430});
  EXPECT_EQ(corpus.train.tokens.bytesPerSymbol(), 2);  // 10,000 words need 2 bytes
  EXPECT_EQ(corpus.train.tokens.storageBytes(), int64_t{929589 * 2});
  EXPECT_EQ(vocabulary.decode(head(corpus.train.tokens, 4)),
            std::string("aer banknote berlitz calloway"));
}

MRNN_TEST(ptb_characters_decode_underscores_and_line_ends) {
  const auto corpus = engine::loadCorpus(ptbFiles("ptb.char."), InputLevel::Char, "");
  // 49 space-separated symbols ('_' read as ' ') and the line end "\n".
  EXPECT_EQ(corpus.vocabulary.size(), int64_t{50});
  EXPECT_EQ(corpus.vocabulary.symbol(0), std::string("\n"));
  EXPECT_EQ(corpus.vocabulary.symbol(1), std::string(" "));
  EXPECT(corpus.vocabulary.find("_") < 0);
  // Characters and line ends: 4,975,414 + 42,068 (the files end in "\n ", no further line).
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{5017482});
  EXPECT_EQ(corpus.valid.tokens.size(), int64_t{389672 + 3370});
  EXPECT_EQ(corpus.test.tokens.size(), int64_t{438662 + 3761});
  EXPECT_EQ(corpus.train.tokens.bytesPerSymbol(), 1);
  // The '_'-separated groups and one <eos> per line are PTB's word tokens: the same counts
  // as the word files', so bits per character convert to PTB's word perplexity.
  EXPECT_EQ(corpus.train.words, int64_t{929589});
  EXPECT_EQ(corpus.valid.words, int64_t{73760});
  EXPECT_EQ(corpus.test.words, int64_t{82430});
  EXPECT_EQ(corpus.vocabulary.decode(head(corpus.valid.tokens, 18)),
            std::string("consumers may want"));
}

MRNN_TEST(shakespeare_characters_split_90_5_5) {
  DataConfig config;
  config.train = test::sharedCorpus("tinyshakespeare/input.txt");
  const auto corpus = engine::loadCorpus(config, InputLevel::Char, "");
  EXPECT_EQ(corpus.vocabulary.size(), int64_t{65});
  // 1,115,394 characters: valid and test floor(5%) each from the end, in that order.
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{1003856});
  EXPECT_EQ(corpus.valid.tokens.size(), int64_t{55769});
  EXPECT_EQ(corpus.test.tokens.size(), int64_t{55769});
  // Whitespace-separated words plus one <eos> per line (Python: len(s.split()) +
  // s.count('\n'), + 1 for a last line with words and no line end).
  EXPECT_EQ(corpus.train.words, int64_t{218025});
  EXPECT_EQ(corpus.valid.words, int64_t{12321});
  EXPECT_EQ(corpus.test.words, int64_t{12307});
  // One byte per symbol, one array for the three splits: the file's size, no more.
  EXPECT_EQ(corpus.train.tokens.bytesPerSymbol(), 1);
  EXPECT_EQ(corpus.train.tokens.storageBytes(), int64_t{1115394});
  EXPECT_EQ(corpus.test.tokens.storageBytes(), int64_t{1115394});
  EXPECT_EQ(corpus.vocabulary.decode(head(corpus.train.tokens, 14)), std::string("First Citizen:"));
  // The test split ends where the file ends.
  const std::string text = readAll(config.train);
  const auto& test = corpus.test.tokens;
  std::string tail;
  for (int64_t i = test.size() - 20; i < test.size(); ++i)
    tail += corpus.vocabulary.symbol(test.at(i));
  EXPECT_EQ(tail, text.substr(text.size() - 20));
}

MRNN_TEST(shakespeare_bytes_are_the_mapped_file) {
  DataConfig config;
  config.train = test::sharedCorpus("tinyshakespeare/input.txt");
  const auto corpus = engine::loadCorpus(config, InputLevel::Byte, "");
  EXPECT_EQ(corpus.vocabulary.size(), int64_t{256});
  EXPECT(corpus.vocabulary.level() == InputLevel::Byte);
  EXPECT_EQ(corpus.train.tokens.bytesPerSymbol(), 1);
  EXPECT_EQ(corpus.train.tokens.storageBytes(), int64_t{1115394});  // the mapping itself
  EXPECT_EQ(corpus.train.tokens.size() + corpus.valid.tokens.size() + corpus.test.tokens.size(),
            int64_t{1115394});
  const std::string text = readAll(config.train);
  for (int64_t i : {int64_t{0}, int64_t{1}, int64_t{500000}, int64_t{1003855}})
    EXPECT_EQ(corpus.train.tokens.at(i), int64_t{static_cast<uint8_t>(text[size_t(i)])});
  EXPECT_EQ(corpus.test.tokens.at(0), int64_t{static_cast<uint8_t>(text[1003856 + 55769])});
  EXPECT_EQ(corpus.train.words + 0, int64_t{218025});
}

MRNN_TEST(shakespeare_max_symbols_keeps_a_prefix_of_each_split) {
  DataConfig config;
  config.train = test::sharedCorpus("tinyshakespeare/input.txt");
  config.maxSymbols = 1000;
  const auto corpus = engine::loadCorpus(config, InputLevel::Char, "");
  EXPECT_EQ(corpus.vocabulary.size(), int64_t{65});  // still the whole train split's
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{1000});
  EXPECT_EQ(corpus.valid.tokens.size(), int64_t{1000});
  EXPECT_EQ(corpus.test.tokens.size(), int64_t{1000});
  const std::string text = readAll(config.train);
  int64_t words = 0;  // the words and line ends of those 1,000 characters
  for (size_t i = 0; i < 1000; ++i)
    words += (!std::isspace(static_cast<unsigned char>(text[i])) &&
              (i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1])))) +
             (text[i] == '\n');
  // The cut last line's <eos>, when it holds a word.
  const size_t lineStart = text.rfind('\n', 999) + 1;
  for (size_t i = lineStart; i < 1000; ++i) {
    if (!std::isspace(static_cast<unsigned char>(text[i]))) {
      ++words;
      break;
    }
  }
  EXPECT_EQ(corpus.train.words, words);
}

MRNN_TEST(ptb_valid_read_again_with_load_split) {
  const auto corpus = engine::loadCorpus(ptbFiles("ptb."), InputLevel::Word, "");
  const auto again = engine::loadSplit(test::sharedCorpus("ptb/ptb.valid.txt"),
                                       engine::CorpusFormat::Auto, corpus.vocabulary);
  EXPECT_EQ(again.tokens.size(), corpus.valid.tokens.size());
  EXPECT_EQ(again.words, corpus.valid.words);
  EXPECT(head(again.tokens, 100) == head(corpus.valid.tokens, 100));
}

// Krause eq. 23 with the paper's own figures: 1.2649 bits/char on WikiText-2's test set, whose
// 1,256,449 bytes are 245,569 words of the word-level benchmark, is a word perplexity of 88.8.
// The raw bytes' own words and lines are fewer (the benchmark splits punctuation), so the
// count comes from data.word_counts.
MRNN_TEST(word_counts_from_the_benchmark_give_krause_wikitext2_perplexity) {
  test::DataScratch scratch("wikiwords");
  std::string text;
  while (text.size() < 1000) text += "The valley , where rivers meet @-@ flows .\n";
  DataConfig config;
  config.train = scratch.write("wiki.txt", text + text + text);
  config.valid = scratch.write("valid.txt", text);
  config.test = scratch.write("test.txt", text);
  config.testWords = 245569;
  auto corpus = engine::loadCorpus(config, InputLevel::Byte, "");
  EXPECT_EQ(corpus.test.words, int64_t{245569});
  EXPECT_EQ(corpus.valid.words, engine::countWords(corpus.valid.tokens, corpus.vocabulary));
  const auto figures = engine::lossFigures(1.2649 * std::log(2.0), 1256449, corpus.test.words);
  EXPECT_NEAR(figures.wordPerplexity, 88.8, 0.05);
  // A prefix keeps the benchmark's words in proportion.
  config.maxSymbols = static_cast<int64_t>(text.size() / 2);
  corpus = engine::loadCorpus(config, InputLevel::Byte, "");
  EXPECT_EQ(corpus.test.words,
            static_cast<int64_t>(std::llround(245569.0 * static_cast<double>(config.maxSymbols) /
                                              static_cast<double>(text.size()))));
}
