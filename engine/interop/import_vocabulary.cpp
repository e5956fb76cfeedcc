#include "engine/interop/import_vocabulary.h"

#include <set>
#include <sstream>
#include <vector>

#include "engine/data/utf8.h"
#include "engine/interop/named_tensors.h"
#include "engine/io/atomic_file.h"

namespace mrnn::engine {
namespace {

std::string readText(const std::string& path) {
  try {
    return readWholeFile(path);
  } catch (const std::exception& error) {
    throw InteropError(error.what());
  }
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
  std::istringstream in(readText(path));
  std::vector<std::string> symbols;
  std::set<std::string> seen;
  int line = 0;
  for (std::string symbol; std::getline(in, symbol);) {
    ++line;
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
      throw InteropError("'" + path + "':" + std::to_string(line) +
                         ": an empty line; every line "
                         "names one symbol (\\n for a line break)");
    }
    if (!seen.insert(symbol).second) {
      throw InteropError("'" + path + "':" + std::to_string(line) + ": symbol '" + symbol +
                         "' appears twice");
    }
    symbols.push_back(symbol);
  }
  return build(path, level, std::move(symbols));
}

Vocabulary vocabularyFromCorpusOrder(const std::string& path, InputLevel level) {
  const std::string text = readText(path);
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
