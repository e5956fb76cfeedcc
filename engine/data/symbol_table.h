#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/data/vocabulary.h"

namespace mrnn::engine {

// Fast symbol -> id lookup for encoding a corpus with a vocabulary (Vocabulary::find is a
// binary search over strings; this is one array index per character or one hash per word).
// Characters: a table indexed by code point, up to the largest one in the vocabulary.
// Words: a hash map viewing the vocabulary's strings, which must outlive the table.
class SymbolTable {
 public:
  explicit SymbolTable(const Vocabulary& vocabulary);

  int64_t findChar(uint32_t codePoint) const {
    return codePoint < chars_.size() ? chars_[codePoint] : -1;
  }
  // "" is a line end (<eos>).
  int64_t findWord(std::string_view word) const {
    if (word.empty()) return eos_;
    const auto it = words_.find(word);
    return it == words_.end() ? -1 : it->second;
  }
  int64_t unkId() const { return unk_; }

 private:
  std::vector<int32_t> chars_;
  std::unordered_map<std::string_view, int64_t> words_;
  int64_t unk_;
  int64_t eos_;
};

}  // namespace mrnn::engine
