#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// The symbols a model reads and writes. Byte level: the 256 byte values. Char level: the
// Unicode code points of the training split (sorted), stored UTF-8 encoded. Word level:
// the training split's words (by frequency, then alphabetically), with <unk> and <eos>.
class Vocabulary {
 public:
  Vocabulary() = default;
  static Vocabulary bytes();
  // Ids are positions in `symbols`, taken as given (nothing added or reordered); throws
  // std::invalid_argument for an empty or repeated symbol, or a byte list that is not the
  // 256 bytes in order.
  static Vocabulary fromSymbols(InputLevel level, std::vector<std::string> symbols);

  InputLevel level() const { return level_; }
  int64_t size() const { return static_cast<int64_t>(symbols_.size()); }
  const std::string& symbol(int64_t id) const { return symbols_.at(static_cast<size_t>(id)); }
  // -1 when absent.
  int64_t find(const std::string& symbol) const;
  int64_t unkId() const;  // -1 when the vocabulary has no <unk>
  int64_t eosId() const;  // -1 when the vocabulary has no <eos>

  // Text to ids, split at this vocabulary's level (word level: whitespace tokens, "\n"
  // becomes <eos>). A symbol outside the vocabulary maps to <unk> when there is one, else
  // throws std::invalid_argument naming the symbol and its position.
  std::vector<int64_t> encode(const std::string& text) const;
  // Ids to text (word level: tokens joined by spaces, <eos> as "\n").
  std::string decode(const std::vector<int64_t>& ids) const;

  // One line per symbol, escaped; round-trips through deserialize(). Stored in checkpoints.
  std::string serialize() const;
  static Vocabulary deserialize(const std::string& text);
  // A stable hash of level and symbols: checkpoints of another vocabulary are refused.
  uint64_t fingerprint() const;

 private:
  InputLevel level_ = InputLevel::Char;
  std::vector<std::string> symbols_;
  std::vector<std::pair<std::string, int64_t>> sorted_;  // for find()
  int64_t unk_ = -1;
  int64_t eos_ = -1;
};

// A symbol quoted for messages, control bytes and spaces escaped: '\x0A', 'a'.
std::string printableSymbol(const std::string& symbol);

// How two vocabularies differ, for a message that says "another vocabulary": their levels,
// their sizes, or the first id whose symbols differ ("id 7 is 'a' in the first and 'b' in
// the second"). "" when they are the same.
std::string vocabularyDifference(const Vocabulary& first, const Vocabulary& second);

}  // namespace mrnn::engine
