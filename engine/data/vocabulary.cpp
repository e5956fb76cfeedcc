#include "engine/data/vocabulary.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "engine/data/utf8.h"

namespace mrnn::engine {
namespace {

const char* const kUnk = "<unk>";
const char* const kEos = "<eos>";
const char* const kMagic = "mrnn-vocabulary";

std::string hexByte(uint8_t byte) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\x%02X", byte);
  return buffer;
}

// Serialized symbols stay one per line and survive editors: backslash, spaces and control
// bytes are escaped, and so is every byte >= 0x80 of a byte vocabulary (not UTF-8 alone).
std::string escape(const std::string& symbol, bool escapeHigh) {
  std::string out;
  for (const char c : symbol) {
    const auto byte = static_cast<uint8_t>(c);
    if (c == '\\') {
      out += "\\\\";
    } else if (byte <= 0x20 || byte == 0x7F || (escapeHigh && byte >= 0x80)) {
      out += hexByte(byte);
    } else {
      out += c;
    }
  }
  return out;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string unescape(const std::string& line, size_t lineNumber) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\\') {
      out += line[i];
      continue;
    }
    if (i + 1 < line.size() && line[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else if (i + 3 < line.size() && line[i + 1] == 'x' && hexValue(line[i + 2]) >= 0 &&
               hexValue(line[i + 3]) >= 0) {
      out += static_cast<char>(hexValue(line[i + 2]) * 16 + hexValue(line[i + 3]));
      i += 3;
    } else {
      throw std::invalid_argument("vocabulary line " + std::to_string(lineNumber) +
                                  ": bad escape in '" + line + "'");
    }
  }
  return out;
}

InputLevel levelFromName(const std::string& name) {
  if (name == "byte") return InputLevel::Byte;
  if (name == "char") return InputLevel::Char;
  if (name == "word") return InputLevel::Word;
  throw std::invalid_argument("vocabulary: unknown level '" + name + "'");
}

}  // namespace

std::string printableSymbol(const std::string& symbol) {
  return "'" + escape(symbol, false) + "'";
}

std::string vocabularyDifference(const Vocabulary& first, const Vocabulary& second) {
  if (first.level() != second.level()) {
    return inputLevelName(first.level()) + " level against " + inputLevelName(second.level());
  }
  const int64_t shared = std::min(first.size(), second.size());
  for (int64_t id = 0; id < shared; ++id) {
    if (first.symbol(id) != second.symbol(id)) {
      return "id " + std::to_string(id) + " is " + printableSymbol(first.symbol(id)) +
             " in the first and " + printableSymbol(second.symbol(id)) + " in the second" +
             (first.size() != second.size()
                  ? "; " + std::to_string(first.size()) + " symbols against " +
                        std::to_string(second.size())
                  : "");
    }
  }
  if (first.size() != second.size()) {
    return std::to_string(first.size()) + " symbols against " + std::to_string(second.size()) +
           ", the first " + std::to_string(shared) + " the same";
  }
  return "";
}

Vocabulary Vocabulary::bytes() {
  std::vector<std::string> symbols;
  symbols.reserve(256);
  for (int byte = 0; byte < 256; ++byte) symbols.emplace_back(1, static_cast<char>(byte));
  return fromSymbols(InputLevel::Byte, std::move(symbols));
}

Vocabulary Vocabulary::fromSymbols(InputLevel level, std::vector<std::string> symbols) {
  Vocabulary vocabulary;
  vocabulary.level_ = level;
  vocabulary.symbols_ = std::move(symbols);
  auto& sorted = vocabulary.sorted_;
  sorted.reserve(vocabulary.symbols_.size());
  for (size_t id = 0; id < vocabulary.symbols_.size(); ++id) {
    if (vocabulary.symbols_[id].empty())
      throw std::invalid_argument("vocabulary: symbol " + std::to_string(id) + " is empty");
    sorted.emplace_back(vocabulary.symbols_[id], static_cast<int64_t>(id));
  }
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i].first == sorted[i - 1].first)
      throw std::invalid_argument("vocabulary: symbol " + printableSymbol(sorted[i].first) +
                                  " appears twice");
  }
  if (level == InputLevel::Byte) {
    bool canonical = vocabulary.symbols_.size() == 256;
    for (size_t id = 0; canonical && id < 256; ++id)
      canonical = vocabulary.symbols_[id] == std::string(1, static_cast<char>(id));
    if (!canonical) throw std::invalid_argument("vocabulary: a byte vocabulary is the 256 bytes");
  } else {
    // <unk>/<eos> are ordinary entries of char/word vocabularies; bytes have neither.
    vocabulary.unk_ = vocabulary.find(kUnk);
    vocabulary.eos_ = vocabulary.find(kEos);
  }
  return vocabulary;
}

int64_t Vocabulary::find(const std::string& symbol) const {
  const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), symbol,
                                   [](const std::pair<std::string, int64_t>& entry,
                                      const std::string& key) { return entry.first < key; });
  return it != sorted_.end() && it->first == symbol ? it->second : -1;
}

int64_t Vocabulary::unkId() const {
  return unk_;
}
int64_t Vocabulary::eosId() const {
  return eos_;
}

namespace {

// "symbol 'Z' at byte 0 is not in the vocabulary", or for several "symbols '"' at byte 42,
// '(' at byte 77 and 'Z' at byte 90 are not in the vocabulary" (the first eight, then a count).
std::string missingSymbolsText(const std::vector<std::pair<std::string, size_t>>& missing,
                               const std::function<bool(const std::string&)>& knowsLowercase) {
  constexpr size_t kNamed = 8;
  std::string text = missing.size() == 1 ? "symbol " : "symbols ";
  const size_t named = std::min(missing.size(), kNamed);
  for (size_t i = 0; i < named; ++i) {
    if (i > 0) text += i + 1 == named && missing.size() <= kNamed ? " and " : ", ";
    text += printableSymbol(missing[i].first) + " at byte " + std::to_string(missing[i].second);
  }
  if (missing.size() > kNamed) {
    text += " and " + std::to_string(missing.size() - kNamed) + " others";
  }
  text += missing.size() == 1 ? " is not in the vocabulary" : " are not in the vocabulary";
  // PTB and text8 models know only lowercase: say so where the lowercase letters are known.
  const bool lowercaseModel = std::all_of(missing.begin(), missing.end(), [&](const auto& entry) {
    const std::string& symbol = entry.first;
    return symbol.size() == 1 && symbol[0] >= 'A' && symbol[0] <= 'Z' &&
           knowsLowercase(std::string(1, static_cast<char>(symbol[0] - 'A' + 'a')));
  });
  if (lowercaseModel) {
    text += missing.size() == 1 ? " (its lowercase is: the model was trained on lowercased text)"
                                : " (their lowercase is: the model was trained on lowercased text)";
  }
  return text;
}

}  // namespace

std::vector<int64_t> Vocabulary::encode(const std::string& text) const {
  std::vector<int64_t> ids;
  // Every symbol the vocabulary lacks, named at once (not one a try), in order of appearance.
  std::vector<std::pair<std::string, size_t>> missing;
  auto lookup = [&](const std::string& symbol, size_t offset) {
    int64_t id = find(symbol);
    if (id < 0) id = unk_;
    if (id < 0) {
      const bool named = std::any_of(missing.begin(), missing.end(),
                                     [&](const auto& entry) { return entry.first == symbol; });
      if (!named) missing.emplace_back(symbol, offset);
      return;
    }
    ids.push_back(id);
  };
  const auto* begin = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = begin + text.size();
  if (level_ == InputLevel::Byte) {
    for (const auto* p = begin; p < end; ++p) ids.push_back(*p);
  } else if (level_ == InputLevel::Char) {
    for (const auto* p = begin; p < end;) {
      uint32_t codePoint = 0;
      const int length = utf8::decode(p, end, codePoint);
      if (length == 0)
        throw std::invalid_argument("invalid UTF-8 at byte " + std::to_string(p - begin));
      lookup(std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(length)),
             static_cast<size_t>(p - begin));
      p += length;
    }
  } else {
    for (const auto* p = begin; p < end;) {
      if (*p == '\n') {
        lookup(kEos, static_cast<size_t>(p - begin));
        ++p;
      } else if (utf8::isSpace(*p)) {
        ++p;
      } else {
        const auto* start = p;
        while (p < end && !utf8::isSpace(*p)) ++p;
        lookup(std::string(reinterpret_cast<const char*>(start), static_cast<size_t>(p - start)),
               static_cast<size_t>(start - begin));
      }
    }
  }
  if (!missing.empty()) {
    throw std::invalid_argument(
        missingSymbolsText(missing, [this](const std::string& lower) { return find(lower) >= 0; }));
  }
  return ids;
}

std::string Vocabulary::decode(const std::vector<int64_t>& ids) const {
  std::string text;
  bool lineStart = true;
  for (const int64_t id : ids) {
    if (id < 0 || id >= size())
      throw std::out_of_range("id " + std::to_string(id) + " is outside the vocabulary of " +
                              std::to_string(size()));
    if (level_ != InputLevel::Word) {
      text += symbols_[static_cast<size_t>(id)];
    } else if (id == eos_) {
      text += '\n';
      lineStart = true;
    } else {
      if (!lineStart) text += ' ';
      text += symbols_[static_cast<size_t>(id)];
      lineStart = false;
    }
  }
  return text;
}

std::string Vocabulary::serialize() const {
  std::string out = std::string(kMagic) + " 1 " + inputLevelName(level_) + " " +
                    std::to_string(symbols_.size()) + "\n";
  for (const auto& symbol : symbols_) out += escape(symbol, level_ == InputLevel::Byte) + "\n";
  return out;
}

Vocabulary Vocabulary::deserialize(const std::string& text) {
  std::istringstream in(text);
  std::string header;
  std::getline(in, header);
  std::istringstream fields(header);
  std::string magic;
  int version = 0;
  std::string level;
  int64_t count = -1;
  fields >> magic >> version >> level >> count;
  if (!fields || magic != kMagic || version != 1 || count < 0)
    throw std::invalid_argument("not a serialized vocabulary (header '" + header + "')");
  std::vector<std::string> symbols;
  symbols.reserve(static_cast<size_t>(count));
  std::string line;
  while (static_cast<int64_t>(symbols.size()) < count && std::getline(in, line))
    symbols.push_back(unescape(line, symbols.size() + 2));
  if (static_cast<int64_t>(symbols.size()) != count)
    throw std::invalid_argument("vocabulary: expected " + std::to_string(count) +
                                " symbols, found " + std::to_string(symbols.size()));
  return fromSymbols(levelFromName(level), std::move(symbols));
}

uint64_t Vocabulary::fingerprint() const {
  // FNV-1a over the level and the length-prefixed symbols: stable across platforms and runs.
  uint64_t hash = 1469598103934665603ull;
  auto mix = [&hash](uint8_t byte) {
    hash ^= byte;
    hash *= 1099511628211ull;
  };
  mix(static_cast<uint8_t>(level_));
  for (const auto& symbol : symbols_) {
    for (int shift = 0; shift < 32; shift += 8) mix(static_cast<uint8_t>(symbol.size() >> shift));
    for (const char c : symbol) mix(static_cast<uint8_t>(c));
  }
  return hash;
}

}  // namespace mrnn::engine
