#include "engine/data/symbol_table.h"

#include "engine/data/utf8.h"

namespace mrnn::engine {

SymbolTable::SymbolTable(const Vocabulary& vocabulary)
    : unk_(vocabulary.unkId()), eos_(vocabulary.eosId()) {
  if (vocabulary.level() == InputLevel::Word) {
    words_.reserve(static_cast<size_t>(vocabulary.size()));
    for (int64_t id = 0; id < vocabulary.size(); ++id) words_.emplace(vocabulary.symbol(id), id);
    return;
  }
  // Character symbols of exactly one code point; others (a "<unk>" entry) are not characters.
  for (int64_t id = 0; id < vocabulary.size(); ++id) {
    const std::string& symbol = vocabulary.symbol(id);
    const auto* begin = reinterpret_cast<const uint8_t*>(symbol.data());
    uint32_t codePoint = 0;
    if (utf8::decode(begin, begin + symbol.size(), codePoint) != static_cast<int>(symbol.size()))
      continue;
    if (codePoint >= chars_.size()) chars_.resize(codePoint + 1, -1);
    chars_[codePoint] = static_cast<int32_t>(id);
  }
}

}  // namespace mrnn::engine
