// Vocabulary: lookup, encode/decode at each level, serialization round trips, fingerprints.

#include <algorithm>

#include "engine/data/vocabulary.h"
#include "test_harness.h"

using namespace mrnn;
using engine::InputLevel;
using engine::Vocabulary;

namespace {

Vocabulary words() {
  return Vocabulary::fromSymbols(InputLevel::Word, {"the", "<unk>", "<eos>", "cat", "sat"});
}

}  // namespace

MRNN_TEST(byte_vocabulary_round_trips_any_bytes) {
  const Vocabulary bytes = Vocabulary::bytes();
  EXPECT_EQ(bytes.size(), int64_t{256});
  EXPECT(bytes.level() == InputLevel::Byte);
  EXPECT_EQ(bytes.unkId(), int64_t{-1});
  EXPECT_EQ(bytes.eosId(), int64_t{-1});
  const std::string binary("\0\xff\n a\x80", 6);
  const auto ids = bytes.encode(binary);
  EXPECT(ids == (std::vector<int64_t>{0, 255, 10, 32, 97, 128}));
  EXPECT_EQ(bytes.decode(ids), binary);
  EXPECT_EQ(bytes.find("a"), int64_t{97});
}

MRNN_TEST(char_vocabulary_encodes_code_points) {
  const Vocabulary chars = Vocabulary::fromSymbols(InputLevel::Char, {"\n", " ", "a", "é", "€"});
  const auto ids = chars.encode("a é\n€");
  EXPECT(ids == (std::vector<int64_t>{2, 1, 3, 0, 4}));
  EXPECT_EQ(chars.decode(ids), std::string("a é\n€"));
  EXPECT_EQ(chars.unkId(), int64_t{-1});
  EXPECT_THROWS_WITH(std::invalid_argument, chars.encode("aab"), "'b'", "byte 2",
                     "not in the vocabulary");
  // A model of lowercased text (PTB, text8) read with a capital: the message says why.
  EXPECT_THROWS_WITH(std::invalid_argument, chars.encode("A"), "'A'", "lowercased text");
  std::string lowercaseKnown;  // 'b' has no capital: no word on lowercase
  try {
    chars.encode("aab");
  } catch (const std::invalid_argument& error) {
    lowercaseKnown = error.what();
  }
  EXPECT(!lowercaseKnown.empty() && lowercaseKnown.find("lowercase") == std::string::npos);
  EXPECT_THROWS_WITH(std::invalid_argument, chars.encode("a\xff"), "invalid UTF-8", "byte 1");
  // Every symbol the model cannot read is named at once, each once, where it first stands; a
  // user fixing one at a time met the next only on the next try.
  EXPECT_THROWS_WITH(std::invalid_argument, chars.encode("a \"b\" (c)"),
                     "symbols '\"' at byte 2, 'b' at byte 3, '(' at byte 6, 'c' at byte 7 and ')' "
                     "at byte 8 are not in the vocabulary");
  EXPECT_THROWS_WITH(std::invalid_argument, chars.encode("ABCDEFGHIJ"), "'H' at byte 7",
                     "and 2 others are not in the vocabulary");
  // With <unk>, unknown characters map to it.
  const Vocabulary withUnk = Vocabulary::fromSymbols(InputLevel::Char, {"<unk>", "a"});
  EXPECT(withUnk.encode("ab") == (std::vector<int64_t>{1, 0}));
  EXPECT_THROWS_WITH(std::out_of_range, chars.decode({5}), "id 5");
}

MRNN_TEST(word_vocabulary_encodes_lines_with_eos) {
  const Vocabulary v = words();
  EXPECT_EQ(v.unkId(), int64_t{1});
  EXPECT_EQ(v.eosId(), int64_t{2});
  const auto ids = v.encode("the cat  sat\nthe dog\n");
  EXPECT(ids == (std::vector<int64_t>{0, 3, 4, 2, 0, 1, 2}));
  EXPECT_EQ(v.decode(ids), std::string("the cat sat\nthe <unk>\n"));
  EXPECT_EQ(v.find("cat"), int64_t{3});
  EXPECT_EQ(v.find("dog"), int64_t{-1});
  const Vocabulary noUnk = Vocabulary::fromSymbols(InputLevel::Word, {"a", "<eos>"});
  EXPECT_THROWS_WITH(std::invalid_argument, noUnk.encode("a b"), "'b'", "byte 2");
}

MRNN_TEST(from_symbols_refuses_duplicates_and_odd_bytes) {
  EXPECT_THROWS_WITH(std::invalid_argument,
                     Vocabulary::fromSymbols(InputLevel::Char, {"a", "b", "a"}), "'a'", "twice");
  EXPECT_THROWS_WITH(std::invalid_argument, Vocabulary::fromSymbols(InputLevel::Char, {""}),
                     "empty");
  EXPECT_THROWS_WITH(std::invalid_argument, Vocabulary::fromSymbols(InputLevel::Byte, {"a"}),
                     "256 bytes");
}

MRNN_TEST(serialization_round_trips_every_level) {
  const std::vector<Vocabulary> all{
      Vocabulary::bytes(),
      Vocabulary::fromSymbols(InputLevel::Char, {"\n", " ", "\\", "\t", "é", "x"}),
      Vocabulary::fromSymbols(InputLevel::Word, {"<eos>", "a\\b", "<unk>", "naïve", "x\\x41"}),
  };
  for (const auto& vocabulary : all) {
    const std::string text = vocabulary.serialize();
    const Vocabulary back = Vocabulary::deserialize(text);
    EXPECT(back.level() == vocabulary.level());
    EXPECT_EQ(back.size(), vocabulary.size());
    for (int64_t id = 0; id < vocabulary.size(); ++id)
      EXPECT_EQ(back.symbol(id), vocabulary.symbol(id));
    EXPECT_EQ(back.fingerprint(), vocabulary.fingerprint());
    EXPECT_EQ(back.unkId(), vocabulary.unkId());
    EXPECT_EQ(back.eosId(), vocabulary.eosId());
    // One line per symbol after the header.
    EXPECT_EQ(static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')),
              vocabulary.size() + 1);
  }
  EXPECT_THROWS_WITH(std::invalid_argument, Vocabulary::deserialize("hello\n"),
                     "not a serialized vocabulary");
  EXPECT_THROWS_WITH(std::invalid_argument,
                     Vocabulary::deserialize("mrnn-vocabulary 1 char 3\na\nb\n"), "expected 3");
  EXPECT_THROWS_WITH(std::invalid_argument,
                     Vocabulary::deserialize("mrnn-vocabulary 1 char 1\n\\q\n"), "bad escape");
}

MRNN_TEST(fingerprint_tells_vocabularies_apart) {
  const auto a = Vocabulary::fromSymbols(InputLevel::Char, {"a", "b"});
  EXPECT_EQ(a.fingerprint(), Vocabulary::fromSymbols(InputLevel::Char, {"a", "b"}).fingerprint());
  EXPECT(a.fingerprint() != Vocabulary::fromSymbols(InputLevel::Char, {"b", "a"}).fingerprint());
  EXPECT(a.fingerprint() != Vocabulary::fromSymbols(InputLevel::Word, {"a", "b"}).fingerprint());
  EXPECT(a.fingerprint() != Vocabulary::fromSymbols(InputLevel::Char, {"ab"}).fingerprint());
  // Fixed values (FNV-1a, computed independently): the hash must not change between builds,
  // or checkpoints written earlier would be refused.
  EXPECT_EQ(Vocabulary::bytes().fingerprint(), uint64_t{10945804843445389209ull});
  EXPECT_EQ(a.fingerprint(), uint64_t{6741817341898589027ull});
}
