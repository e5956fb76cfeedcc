// The corpus readers on small synthetic files with known answers: word vocabularies
// (order, <unk>, <eos>, min_count), narrow storage widths, ptb-char at char and byte level,
// relative paths, format detection and max_symbols.

#include "data_fixtures.h"
#include "engine/data/corpus.h"
#include "engine/data/utf8.h"
#include "test_harness.h"

using namespace mrnn;
using engine::CorpusFormat;
using engine::DataConfig;
using engine::InputLevel;

namespace {

std::vector<int64_t> all(const engine::TokenStream& tokens) {
  std::vector<int64_t> ids(static_cast<size_t>(tokens.size()));
  tokens.copy(0, tokens.size(), ids.data());
  return ids;
}

DataConfig files(const test::DataScratch& scratch, const std::string& train,
                 const std::string& valid, const std::string& test) {
  DataConfig config;
  config.train = scratch.write("train.txt", train);
  config.valid = scratch.write("valid.txt", valid);
  config.test = scratch.write("test.txt", test);
  return config;
}

}  // namespace

MRNN_TEST(word_vocabulary_by_frequency_then_alphabet) {
  test::DataScratch scratch("words");
  // b x3, a x3, c x2, <unk> literal x1, d x1; three lines, the last without a line end.
  const auto config = files(scratch, "b a c\n<unk> b a\n  a b c d", "a z\n", "d\n");
  const auto corpus = engine::loadCorpus(config, InputLevel::Word, "");
  const auto& v = corpus.vocabulary;
  const std::vector<std::string> expected{"<eos>", "a", "b", "c", "<unk>", "d"};
  EXPECT_EQ(v.size(), int64_t{6});
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(v.symbol(int64_t(i)), expected[i]);
  // <eos> after every line, also the unterminated last one.
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{13});
  EXPECT_EQ(corpus.train.words, int64_t{13});  // every token, <eos> included (eq. 23)
  EXPECT_EQ(v.decode(all(corpus.train.tokens)), std::string("b a c\n<unk> b a\na b c d\n"));
  // A word unseen in train is <unk> in valid (word level always has <unk>).
  EXPECT(all(corpus.valid.tokens) == (std::vector<int64_t>{1, v.unkId(), v.eosId()}));
  EXPECT_EQ(corpus.valid.words, int64_t{3});
  EXPECT_EQ(corpus.train.tokens.bytesPerSymbol(), 1);
}

MRNN_TEST(word_min_count_folds_rare_words_into_unk) {
  test::DataScratch scratch("mincount");
  auto config = files(scratch, "a a a b b c d\n", "c a\n", "e\n");
  config.minCount = 2;
  const auto corpus = engine::loadCorpus(config, InputLevel::Word, "");
  const auto& v = corpus.vocabulary;
  // a 3, b 2, <unk> 2 (c, d), <eos> 1.
  EXPECT_EQ(v.size(), int64_t{4});
  EXPECT_EQ(v.symbol(0), std::string("a"));
  EXPECT_EQ(v.symbol(1), std::string("<unk>"));
  EXPECT_EQ(v.symbol(2), std::string("b"));
  EXPECT_EQ(v.symbol(3), std::string("<eos>"));
  EXPECT(all(corpus.train.tokens) == (std::vector<int64_t>{0, 0, 0, 2, 2, 1, 1, 3}));
  EXPECT(all(corpus.valid.tokens) == (std::vector<int64_t>{1, 0, 3}));
  EXPECT_EQ(corpus.train.words, int64_t{8});  // <unk> are words, and so is <eos>
}

MRNN_TEST(vocabulary_sizes_choose_one_two_or_four_bytes) {
  test::DataScratch scratch("widths");
  // 300 distinct code points (U+0100..U+022B): more than a byte can number.
  std::string wide;
  for (uint32_t c = 0x100; c < 0x100 + 300; ++c) engine::utf8::append(wide, c);
  DataConfig chars;
  chars.train = scratch.write("wide.txt", wide + wide + wide);
  chars.validFraction = 0.1;
  chars.testFraction = 0.1;
  const auto corpus = engine::loadCorpus(chars, InputLevel::Char, "");
  EXPECT_EQ(corpus.vocabulary.size(), int64_t{300});
  EXPECT_EQ(corpus.train.tokens.bytesPerSymbol(), 2);
  EXPECT_EQ(corpus.train.tokens.storageBytes(), int64_t{900 * 2});
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{720});
  EXPECT_EQ(corpus.vocabulary.decode(all(corpus.train.tokens.slice(0, 300))), wide);
  EXPECT_EQ(corpus.vocabulary.symbol(0), engine::utf8::encode(0x100));  // by code point

  // 70,000 distinct words: more than 2 bytes can number.
  std::string words;
  for (int i = 0; i < 70000; ++i) words += "w" + std::to_string(i) + (i % 10 == 9 ? "\n" : " ");
  DataConfig many;
  many.train = scratch.write("many.txt", words);
  many.validFraction = 0.0;
  many.testFraction = 0.0;
  const auto big = engine::loadCorpus(many, InputLevel::Word, "");
  EXPECT_EQ(big.vocabulary.size(), int64_t{70002});  // and <unk>, <eos>
  EXPECT_EQ(big.train.tokens.bytesPerSymbol(), 4);
  EXPECT_EQ(big.train.tokens.size(), int64_t{77000});
  EXPECT_EQ(big.valid.tokens.size(), int64_t{0});  // a fraction of 0: no split, no error
  EXPECT_EQ(big.vocabulary.symbol(big.train.tokens.at(76999)), std::string("<eos>"));
  EXPECT_EQ(big.vocabulary.symbol(big.train.tokens.at(76998)), std::string("w69999"));
}

MRNN_TEST(ptb_char_at_char_and_byte_level) {
  test::DataScratch scratch("ptbchar");
  const std::string text = " a b _ c\n d _ é\n";
  DataConfig config;
  config.train = scratch.write("ptb.char.train.txt", text);
  config.valid = scratch.write("ptb.char.valid.txt", "a _ b\n");
  config.test = scratch.write("ptb.char.test.txt", "c\n");
  const auto chars = engine::loadCorpus(config, InputLevel::Char, "");
  EXPECT_EQ(chars.vocabulary.decode(all(chars.train.tokens)), std::string("ab c\nd é\n"));
  EXPECT_EQ(chars.vocabulary.size(), int64_t{7});  // \n, ' ', a, b, c, d, é
  EXPECT_EQ(chars.train.words, int64_t{6});        // ab, c, <eos>, d, é, <eos>
  EXPECT_EQ(chars.valid.words, int64_t{3});
  const auto bytes = engine::loadCorpus(config, InputLevel::Byte, "");
  // The bytes of the decoded text, é as its two UTF-8 bytes.
  EXPECT_EQ(bytes.train.tokens.size(), int64_t{10});
  EXPECT_EQ(bytes.vocabulary.decode(all(bytes.train.tokens)), std::string("ab c\nd é\n"));
  EXPECT_EQ(bytes.train.tokens.at(7), int64_t{0xC3});
}

MRNN_TEST(text_read_at_byte_level_maps_any_bytes) {
  test::DataScratch scratch("anybytes");
  std::string binary;
  for (int i = 0; i < 1000; ++i) binary += static_cast<char>((i * 37) % 256);
  DataConfig config;
  config.train = scratch.write("blob.bin", binary);
  const auto corpus = engine::loadCorpus(config, InputLevel::Byte, "");
  EXPECT_EQ(corpus.train.tokens.size() + corpus.valid.tokens.size() + corpus.test.tokens.size(),
            int64_t{1000});
  EXPECT_EQ(corpus.valid.tokens.size(), int64_t{50});
  EXPECT_EQ(corpus.test.tokens.at(49), int64_t{(999 * 37) % 256});
  EXPECT_EQ(corpus.train.tokens.storageBytes(), int64_t{1000});
}

MRNN_TEST(relative_paths_resolve_in_the_project_folder) {
  test::DataScratch scratch("relative");
  std::string lines;
  for (int i = 0; i < 100; ++i) lines += "a\n";
  scratch.write("corpus.txt", lines);
  DataConfig config;
  config.train = "corpus.txt";
  const auto corpus = engine::loadCorpus(config, InputLevel::Char, scratch.folder());
  EXPECT_EQ(corpus.train.source, scratch.path("corpus.txt"));
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{180});
  EXPECT_EQ(corpus.valid.tokens.size(), int64_t{10});
  EXPECT_EQ(corpus.test.tokens.size(), int64_t{10});
  EXPECT_EQ(corpus.train.words, int64_t{180});  // 90 lines: a word and an <eos> each
  EXPECT_EQ(corpus.test.words, int64_t{10});
}

MRNN_TEST(format_auto_follows_the_file_name) {
  using engine::resolveCorpusFormat;
  EXPECT(resolveCorpusFormat(CorpusFormat::Auto, "/d/ptb.char.train.txt") == CorpusFormat::PtbChar);
  EXPECT(resolveCorpusFormat(CorpusFormat::Auto, "ptb.valid.txt") == CorpusFormat::Tokens);
  EXPECT(resolveCorpusFormat(CorpusFormat::Auto, "x/wiki.train.tokens") == CorpusFormat::Tokens);
  EXPECT(resolveCorpusFormat(CorpusFormat::Auto, "input.txt") == CorpusFormat::Text);
  EXPECT(resolveCorpusFormat(CorpusFormat::Auto, "enwik8") == CorpusFormat::Text);
  EXPECT(resolveCorpusFormat(CorpusFormat::Raw, "ptb.char.x") == CorpusFormat::Raw);
  EXPECT_EQ(engine::corpusFormatName(CorpusFormat::PtbChar), std::string("ptb-char"));
}

MRNN_TEST(raw_words_accept_any_bytes) {
  test::DataScratch scratch("rawwords");
  DataConfig config;
  config.train = scratch.write("text8", std::string("ab\xff c\0d ab", 10));
  config.format = CorpusFormat::Raw;
  config.validFraction = 0.0;
  config.testFraction = 0.0;
  const auto corpus = engine::loadCorpus(config, InputLevel::Word, "");
  EXPECT_EQ(corpus.train.tokens.size(), int64_t{4});  // 3 words and the last line's <eos>
  EXPECT_EQ(corpus.vocabulary.symbol(corpus.train.tokens.at(1)), std::string("c\0d", 3));
}

MRNN_TEST(token_stream_from_ids_and_slices) {
  const auto stream = engine::TokenStream::fromIds({3, 1, 4, 1, 5, 9, 2, 6});
  EXPECT_EQ(stream.size(), int64_t{8});
  EXPECT_EQ(stream.bytesPerSymbol(), 1);
  const auto middle = stream.slice(2, 4);
  EXPECT_EQ(middle.at(0), int64_t{4});
  EXPECT_EQ(middle.at(3), int64_t{9});
  EXPECT_EQ(middle.storageBytes(), int64_t{8});  // shared, not copied
  EXPECT_THROWS_WITH(std::out_of_range, middle.at(4), "index 4");
  EXPECT_THROWS_WITH(std::out_of_range, (void)stream.slice(6, 3), "slice");
  EXPECT_EQ(engine::TokenStream::fromIds({70000}).bytesPerSymbol(), 4);
  EXPECT_EQ(engine::TokenStream::fromIds({1}, 300).bytesPerSymbol(), 2);
  EXPECT_THROWS_WITH(std::invalid_argument, engine::TokenStream::fromIds({5}, 5), "id 5");
  engine::TokenStream moved = engine::TokenStream::fromIds({1, 2});
  const engine::TokenStream target = std::move(moved);
  EXPECT_EQ(moved.size(), int64_t{0});  // a moved-from stream is empty
  EXPECT_EQ(target.size(), int64_t{2});
}
