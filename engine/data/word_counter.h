#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/data/vocabulary.h"

namespace mrnn::engine {

// Word frequencies of a training split, for its vocabulary. Each distinct word is copied
// once into an arena (the hash map's keys view it), so the counter costs the distinct words,
// not the corpus, and never points into the mapped file.
class WordCounter {
 public:
  // A word, or a line end ("" or the literal "<eos>").
  void add(std::string_view word);

  // By descending frequency, then alphabetically; words seen fewer than `minCount` times
  // fold into <unk>. <unk> and <eos> are always present (with their counts: <unk> counts the
  // literal "<unk>" tokens plus the folded words).
  Vocabulary build(int64_t minCount) const;

 private:
  std::string_view store(std::string_view word);

  std::unordered_map<std::string_view, int64_t> counts_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t blockUsed_ = 0;
  size_t blockSize_ = 0;
  int64_t lineEnds_ = 0;
};

}  // namespace mrnn::engine
