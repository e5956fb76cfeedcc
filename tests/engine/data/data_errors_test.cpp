// Every kind of bad corpus input gives a DataError naming the file and the problem; a stop
// asked while a large one is read ends the reading.

#include <unistd.h>

#include <vector>

#include "data_fixtures.h"
#include "engine/data/corpus.h"
#include "engine/data/mapped_file.h"
#include "test_harness.h"

using namespace mrnn;
using engine::CorpusFormat;
using engine::DataConfig;
using engine::DataError;
using engine::InputLevel;

namespace {

DataConfig one(const std::string& path) {
  DataConfig config;
  config.train = path;
  return config;
}

}  // namespace

MRNN_TEST(missing_file_is_named) {
  test::DataScratch scratch("missing");
  const std::string path = scratch.path("nowhere.txt");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(path), InputLevel::Char, ""), path.c_str(),
                     "no such file");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(path), InputLevel::Byte, ""), path.c_str(),
                     "no such file");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(scratch.folder()), InputLevel::Byte, ""),
                     "not a regular file");
}

MRNN_TEST(missing_valid_file_is_named) {
  test::DataScratch scratch("missingvalid");
  DataConfig config = one(scratch.write("train.txt", "abc abc\n"));
  config.valid = scratch.path("valid.txt");
  config.test = scratch.write("test.txt", "abc\n");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(config, InputLevel::Word, ""), "valid.txt",
                     "no such file");
}

MRNN_TEST(empty_file_is_refused_at_every_level) {
  test::DataScratch scratch("empty");
  const std::string path = scratch.write("empty.txt", "");
  for (const auto level : {InputLevel::Byte, InputLevel::Char, InputLevel::Word})
    EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(path), level, ""), path.c_str(),
                       "empty file");
}

MRNN_TEST(whitespace_only_words_are_no_symbols) {
  test::DataScratch scratch("blank");
  const std::string path = scratch.write("blank.txt", "   \t  ");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(path), InputLevel::Word, ""), path.c_str(),
                     "no symbols");
}

MRNN_TEST(empty_split_is_refused) {
  test::DataScratch scratch("emptysplit");
  const std::string path = scratch.write("short.txt", "0123456789");
  // 5% of 10 characters is no character at all.
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(path), InputLevel::Char, ""), path.c_str(),
                     "too short", "valid", "10 symbols");
  DataConfig config = one(path);
  config.validFraction = 0.2;
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(config, InputLevel::Char, ""), "test");
}

MRNN_TEST(binary_file_read_as_text_names_the_nul_offset) {
  test::DataScratch scratch("binary");
  const std::string path = scratch.write("model.bin", std::string("PK\x03\x04\x14\0\0\x08", 8));
  for (const auto level : {InputLevel::Char, InputLevel::Word}) {
    EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(path), level, ""), path.c_str(), "binary",
                       "NUL byte at byte offset 5");
  }
  DataConfig ptbChar = one(scratch.write("nul.txt", std::string("a b \0 c\n", 8)));
  ptbChar.format = CorpusFormat::PtbChar;
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(ptbChar, InputLevel::Char, ""), "nul.txt",
                     "NUL byte at byte offset 4");
}

MRNN_TEST(invalid_utf8_names_the_byte_offset) {
  test::DataScratch scratch("utf8");
  const std::string latin1 = scratch.write("latin1.txt", "caf\xe9 au lait, s'il vous pla\xeet");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(latin1), InputLevel::Char, ""),
                     latin1.c_str(), "invalid UTF-8 at byte offset 3", "0xE9");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(latin1), InputLevel::Word, ""),
                     "invalid UTF-8 at byte offset 3");
  // An overlong NUL, a surrogate and a sequence cut off by the end of the file.
  const std::string overlong = scratch.write("overlong.txt", "ok \xc0\x80");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(overlong), InputLevel::Char, ""),
                     "byte offset 3");
  const std::string surrogate = scratch.write("surrogate.txt", "ab\xed\xa0\x80");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(surrogate), InputLevel::Char, ""),
                     "byte offset 2");
  const std::string cut = scratch.write("cut.txt", "abcd\xe2\x82");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(one(cut), InputLevel::Char, ""),
                     "byte offset 4");
  // The same bytes are fine at byte level and as raw words.
  EXPECT_EQ(engine::loadCorpus(one(latin1), InputLevel::Byte, "").vocabulary.size(), int64_t{256});
}

MRNN_TEST(unseen_character_in_valid_is_named_with_its_offset) {
  test::DataScratch scratch("oov");
  DataConfig config;
  config.train = scratch.write("train.txt", "abc cab\n");
  config.valid = scratch.write("valid.txt", "ab\nxé");
  config.test = scratch.write("test.txt", "cab\n");
  // By default the vocabulary comes from every split; strictly, from training alone.
  EXPECT(engine::loadCorpus(config, InputLevel::Char, "").vocabulary.find("x") >= 0);
  config.vocabulary = engine::VocabularySource::Train;
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(config, InputLevel::Char, ""),
                     config.valid.c_str(), "symbol 'x'", "(U+0078)", "byte offset 3",
                     "not in the vocabulary");
  // loadSplit with the vocabulary: the same error for é, at its first byte.
  config.valid = scratch.write("valid.txt", "abé");
  const auto vocabulary =
      engine::Vocabulary::fromSymbols(InputLevel::Char, {"\n", " ", "a", "b", "c"});
  EXPECT_THROWS_WITH(DataError, engine::loadSplit(config.valid, CorpusFormat::Text, vocabulary),
                     "symbol 'é' (U+00E9) at byte offset 2");
}

MRNN_TEST(unseen_character_in_the_fraction_split_is_named) {
  test::DataScratch scratch("oovtail");
  // The last 5% of 100 characters holds a character the first 90% never shows.
  const std::string path = scratch.write("tail.txt", std::string(95, 'a') + "aaaaZ");
  DataConfig strict = one(path);
  strict.vocabulary = engine::VocabularySource::Train;
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(strict, InputLevel::Char, ""), path.c_str(),
                     "symbol 'Z'", "byte offset 99");
  // train_unk: read as <unk> and counted; the default: in the vocabulary.
  strict.vocabulary = engine::VocabularySource::TrainUnk;
  const auto unk = engine::loadCorpus(strict, InputLevel::Char, "");
  EXPECT_EQ(unk.test.unknownSymbols, int64_t{1});
  EXPECT_EQ(unk.test.tokens.at(4), unk.vocabulary.unkId());
  EXPECT(engine::loadCorpus(one(path), InputLevel::Char, "").vocabulary.find("Z") >= 0);
}

MRNN_TEST(levels_a_format_cannot_be_read_at) {
  test::DataScratch scratch("levels");
  DataConfig raw = one(scratch.write("enwik8", "<mediawiki>"));
  raw.format = CorpusFormat::Raw;
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(raw, InputLevel::Char, ""), "enwik8",
                     "level: byte");
  DataConfig ptbChar = one(scratch.write("ptb.char.train.txt", "a b _ c\n"));
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(ptbChar, InputLevel::Word, ""),
                     "ptb.char.train.txt", "level: char");
  DataConfig wide = one(scratch.write("ptb.char.x.txt", "a bc d\n"));
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(wide, InputLevel::Char, ""),
                     "ptb-char symbol 'bc' at byte offset 2");
}

MRNN_TEST(inconsistent_data_config_is_refused) {
  test::DataScratch scratch("config");
  DataConfig config = one(scratch.write("train.txt", std::string(100, 'a')));
  config.valid = scratch.write("valid.txt", "aaa");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(config, InputLevel::Char, ""),
                     "both a valid and a test file", "valid.txt");
  config.valid.clear();
  config.maxSymbols = 1;
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(config, InputLevel::Char, ""), "max_symbols 1");
  config.maxSymbols = 0;
  config.testFraction = 0.5;
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(config, InputLevel::Char, ""), "test_fraction");
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(DataConfig{}, InputLevel::Char, ""),
                     "no training file");
}

MRNN_TEST(several_training_files_are_one_text_and_errors_name_the_file) {
  test::DataScratch scratch("several");
  const std::string a = scratch.write("a.txt", "first file\n");
  const std::string b = scratch.write("b.txt", "second, no line end");
  const std::string c = scratch.write("c.txt", "third\n");
  DataConfig config = one(a);
  config.moreTrain = {b, c};
  config.validFraction = 0.0;
  config.testFraction = 0.0;
  // No held-out split: every symbol of the join is in the training split.
  const engine::Corpus corpus = engine::loadCorpus(config, InputLevel::Char, "");
  // A line break is added after b, which lacks one, so "lineend" and "third" stay apart.
  EXPECT_EQ(corpus.train.tokens.size(),
            static_cast<int64_t>(std::string("first file\nsecond, no line end\nthird\n").size()));
  // A missing file among them is named.
  config.moreTrain = {b, scratch.path("gone.txt")};
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(config, InputLevel::Char, ""), "gone.txt",
                     "no such file");
  // A bad byte in the second file is reported in that file, at its own offset.
  const std::string latin1 = scratch.write("latin1.txt", "caf\xe9");
  config.moreTrain = {latin1};
  EXPECT_THROWS_WITH(DataError, engine::loadCorpus(config, InputLevel::Char, ""), latin1.c_str(),
                     "invalid UTF-8 at byte offset 3");
}

MRNN_TEST(a_byte_corpus_truncated_while_a_run_reads_it_fails_naming_the_file) {
  // Another process truncating a mapped corpus used to kill the reader with SIGBUS.
  test::DataScratch scratch("shrinks");
  const std::string path = scratch.write("c.raw", std::string(1 << 16, 'x'));
  DataConfig config = one(path);
  config.format = CorpusFormat::Raw;
  config.validFraction = 0.0;
  config.testFraction = 0.0;
  const engine::Corpus corpus = engine::loadCorpus(config, InputLevel::Byte, "");
  std::vector<int64_t> ids(100);
  corpus.train.tokens.copy(60000, 100, ids.data());  // mapped and read before the shrink
  EXPECT_EQ(ids[0], int64_t{'x'});
  EXPECT(::truncate(path.c_str(), 1000) == 0);
  corpus.train.tokens.copy(0, 100, ids.data());  // what is still in the file reads as before
  EXPECT_EQ(ids[99], int64_t{'x'});
  EXPECT_THROWS_WITH(DataError, corpus.train.tokens.copy(60000, 100, ids.data()), path.c_str(),
                     "shrank while it was being read", "65536 bytes when it was opened",
                     "1000 bytes now");
}

MRNN_TEST(a_text_corpus_truncated_under_its_mapping_is_named_not_a_crash) {
  test::DataScratch scratch("shrinkstext");
  const std::string path = scratch.write("c.txt", std::string(1 << 16, 'y'));
  const engine::MappedFile file(path);
  EXPECT_EQ(file.data()[50000], uint8_t{'y'});
  EXPECT(::truncate(path.c_str(), 10) == 0);
  file.checkUnchanged();  // nothing read past the end yet
  volatile uint8_t past = file.data()[50000];
  EXPECT_EQ(static_cast<int>(past), 0);
  EXPECT(file.shrank());
  EXPECT_THROWS_WITH(DataError, file.checkUnchanged(), path.c_str(), "10 bytes now");
  // A second file mapped after the first is not affected.
  const engine::MappedFile other(scratch.write("d.txt", std::string(8192, 'z')));
  EXPECT_EQ(other.data()[8000], uint8_t{'z'});
  EXPECT(!other.shrank());
}

// A stop asked while a corpus is read ends the reading at the next 16 MB chunk, in every pass
// (counting, the vocabulary, encoding), as ReadingStopped rather than a problem of the data's.
MRNN_TEST(a_stop_ends_the_reading_of_a_large_corpus_between_chunks) {
  test::DataScratch scratch("stop");
  std::string text;
  while (text.size() < (size_t{40} << 20)) text += "the quick brown fox jumps over the lazy dog\n";
  const std::string path = scratch.write("big.txt", text);
  for (const InputLevel level : {InputLevel::Word, InputLevel::Char}) {
    int asked = 0;
    EXPECT_THROWS_WITH(engine::ReadingStopped,
                       engine::loadCorpus(one(path), level, "", [&asked] { return ++asked > 3; }),
                       "stopped");
    EXPECT_EQ(asked, 4);  // the passes asked at each chunk until the answer was yes
  }
  int asked = 0;
  const engine::Corpus corpus =
      engine::loadCorpus(one(path), InputLevel::Word, "", [&asked] { return ++asked < 0; });
  EXPECT(asked >= 6);  // never asked to stop: read whole, asking on the way
  EXPECT(corpus.train.tokens.size() > 0);
}
