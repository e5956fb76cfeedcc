#include "engine/interop/import_vocabulary.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include "engine/data/utf8.h"
#include "engine/interop/named_tensors.h"
#include "engine/io/atomic_file.h"

namespace mrnn::engine {
namespace {

// A symbol longer than this is no symbol but a line that lost its breaks.
constexpr size_t kMaxSymbolBytes = 1024;

std::string readText(const std::string& path, uint64_t maxBytes) {
  try {
    return readWholeFile(path, maxBytes);
  } catch (const std::exception& error) {
    throw InteropError(error.what());
  }
}

// The number of UTF-8 characters in `text`, or -1 when it is not UTF-8.
int64_t utf8Characters(const std::string& text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = p + text.size();
  int64_t count = 0;
  for (uint32_t codePoint = 0; p < end; ++count) {
    const int length = utf8::decode(p, end, codePoint);
    if (length == 0) return -1;
    p += length;
  }
  return count;
}

Vocabulary build(const std::string& path, InputLevel level, std::vector<std::string> symbols) {
  if (symbols.empty()) throw InteropError("'" + path + "' gives no symbols");
  try {
    return Vocabulary::fromSymbols(level, std::move(symbols));
  } catch (const std::exception& error) {
    throw InteropError("'" + path + "': " + error.what());
  }
}

}  // namespace

Vocabulary vocabularyFromSymbolFile(const std::string& path, InputLevel level) {
  const std::string text = readText(path, kMaxTextFileBytes);
  std::vector<std::string> symbols;
  std::set<std::string> seen;
  // A UTF-8 byte order mark marks the file's encoding; it is not part of the first symbol.
  size_t at = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  for (int line = 1; at < text.size(); ++line) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string symbol = text.substr(at, end - at);
    at = end + 1;
    const auto where = [&] { return "'" + path + "':" + std::to_string(line) + ": "; };
    if (!symbol.empty() && symbol.back() == '\r' && symbol.size() > 1) symbol.pop_back();
    if (symbol == "\\n")
      symbol = "\n";
    else if (symbol == "\\t")
      symbol = "\t";
    else if (symbol == "\\r")
      symbol = "\r";
    else if (symbol == "\\\\")
      symbol = "\\";
    if (symbol.empty()) {
      throw InteropError(where() +
                         "an empty line; every line names one symbol (\\n for a line "
                         "break)");
    }
    if (symbol.size() > kMaxSymbolBytes) {
      throw InteropError(where() + "a symbol of " + std::to_string(symbol.size()) +
                         " bytes; a line names one symbol (at most " +
                         std::to_string(kMaxSymbolBytes) + " bytes)");
    }
    const int64_t characters = utf8Characters(symbol);
    if (characters < 0) {
      throw InteropError(where() + "the line is not UTF-8 text");
    }
    if (level == InputLevel::Char && characters != 1 && symbol != "<unk>" && symbol != "<eos>") {
      throw InteropError(where() + printableSymbol(symbol) + " is " + std::to_string(characters) +
                         " characters; a character-level vocabulary names one character a line");
    }
    if (level == InputLevel::Word && symbol.find_first_of(" \t\r") != std::string::npos) {
      throw InteropError(where() + printableSymbol(symbol) +
                         " holds a space; a word-level vocabulary names one word a line");
    }
    if (!seen.insert(symbol).second) {
      throw InteropError(where() + "symbol " + printableSymbol(symbol) + " appears twice");
    }
    symbols.push_back(symbol);
  }
  return build(path, level, std::move(symbols));
}

Vocabulary vocabularyFromCorpusOrder(const std::string& path, InputLevel level) {
  // A corpus may be large; its own size bounds what is read.
  const std::string text = readText(path, UINT64_MAX);
  std::vector<std::string> symbols;
  std::set<std::string> seen;
  const auto add = [&](const std::string& symbol) {
    if (seen.insert(symbol).second) symbols.push_back(symbol);
  };
  if (level == InputLevel::Word) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      for (std::string word; words >> word;) add(word);
      add("<eos>");
    }
  } else {
    const auto* p = reinterpret_cast<const uint8_t*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
      uint32_t codePoint = 0;
      const int length = utf8::decode(p, end, codePoint);
      if (length == 0) {
        throw InteropError("'" + path + "' is not UTF-8 at byte " +
                           std::to_string(p - reinterpret_cast<const uint8_t*>(text.data())));
      }
      add(std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(length)));
      p += length;
    }
  }
  return build(path, level, std::move(symbols));
}

}  // namespace mrnn::engine
