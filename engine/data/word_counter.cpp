#include "engine/data/word_counter.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace mrnn::engine {
namespace {
constexpr size_t kBlockSize = size_t{1} << 20;
}  // namespace

std::string_view WordCounter::store(std::string_view word) {
  if (blocks_.empty() || blockUsed_ + word.size() > blockSize_) {
    blockSize_ = std::max(kBlockSize, word.size());
    blocks_.emplace_back(new char[blockSize_]);
    blockUsed_ = 0;
  }
  char* at = blocks_.back().get() + blockUsed_;
  std::memcpy(at, word.data(), word.size());
  blockUsed_ += word.size();
  return {at, word.size()};
}

void WordCounter::add(std::string_view word) {
  if (word.empty() || word == "<eos>") {
    ++lineEnds_;
    return;
  }
  const auto it = counts_.find(word);
  if (it != counts_.end()) {
    ++it->second;
  } else {
    counts_.emplace(store(word), 1);
  }
}

Vocabulary WordCounter::build(int64_t minCount) const {
  std::vector<std::pair<std::string_view, int64_t>> entries;
  entries.reserve(counts_.size() + 2);
  int64_t unknown = 0;
  for (const auto& [word, count] : counts_) {
    if (word == "<unk>" || count < minCount) {
      unknown += count;
    } else {
      entries.emplace_back(word, count);
    }
  }
  entries.emplace_back("<unk>", unknown);
  entries.emplace_back("<eos>", lineEnds_);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> symbols;
  symbols.reserve(entries.size());
  for (const auto& entry : entries) symbols.emplace_back(entry.first);
  return Vocabulary::fromSymbols(InputLevel::Word, std::move(symbols));
}

}  // namespace mrnn::engine
