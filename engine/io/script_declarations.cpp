#include "engine/io/script_declarations.h"

#include <cctype>
#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/io/zip_records.h"

namespace mrnn::engine {
namespace {

// A generated module's source is a few hundred bytes a class.
constexpr uint64_t kMaxSourceBytes = uint64_t{1} << 20;

// The pieces of a declaration line, matched by hand (a regular expression recurses per
// character in libstdc++, and a line may be long).
bool allOf(const std::string& text, size_t from, size_t to, bool (*allowed)(char)) {
  if (from >= to || to > text.size()) return false;
  for (size_t i = from; i < to; ++i) {
    if (!allowed(text[i])) return false;
  }
  return true;
}
bool nameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool dottedChar(char c) {
  return nameChar(c) || c == '.';
}
bool typeChar(char c) {
  return dottedChar(c) || c == '[' || c == ']' || c == ',' || c == ' ';
}
bool startsWith(const std::string& text, size_t at, const char* prefix) {
  return text.compare(at, std::char_traits<char>::length(prefix), prefix) == 0;
}

// ["a", "b", ] from `at` to the end of the line.
bool isNameList(const std::string& line, size_t at) {
  if (at >= line.size() || line[at] != '[' || line.back() != ']') return false;
  for (size_t i = at + 1; i + 1 < line.size();) {
    if (line[i] != '"') return false;
    // A name is a string: anything but a quote or an escape ("param_groups/size").
    const size_t close = line.find_first_of("\"\\", i + 1);
    if (close == std::string::npos || line[close] != '"' || !startsWith(line, close + 1, ", ")) {
      return false;
    }
    i = close + 3;
  }
  return true;
}

bool isDeclaration(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos || line[first] == '#') return true;  // blank, comment
  if (startsWith(line, 0, "import ")) return allOf(line, 7, line.size(), dottedChar);
  if (startsWith(line, 0, "class ")) {
    const std::string base = "(Module):";
    return line.size() > 6 + base.size() &&
           line.compare(line.size() - base.size(), base.size(), base) == 0 &&
           allOf(line, 6, line.size() - base.size(), nameChar);
  }
  if (!startsWith(line, 0, "  ")) return false;
  for (const char* list : {"  __parameters__ = ", "  __buffers__ = ", "  __constants__ = "}) {
    if (startsWith(line, 0, list)) return isNameList(line, std::char_traits<char>::length(list));
  }
  if (line == "  __annotations__ = []") return true;
  if (startsWith(line, 0, "  __annotations__[\"")) {  // an unusual name's type
    const size_t close = line.find("\"] = ", 19);
    return close != std::string::npos && line.find_first_of("\"\\", 19) == close &&
           allOf(line, close + 5, line.size(), typeChar);
  }
  const size_t colon = line.find(" : ");  // an attribute's type
  return colon != std::string::npos && allOf(line, 2, colon, nameChar) &&
         allOf(line, colon + 3, line.size(), typeChar);
}

}  // namespace

std::string scriptDeclarationsProblem(const std::string& archive) {
  try {
    ZipRecords zip = ZipRecords::inMemory(archive);
    for (const ZipEntry& entry : zip.entries()) {
      // LibTorch's zip library finds "code/__torch__.py" under any case of those letters.
      std::string name = entry.name;
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (name.find("/code/") == std::string::npos || name.size() < 3 ||
          name.compare(name.size() - 3, 3, ".py") != 0) {
        continue;
      }
      std::istringstream source(zip.read(entry, kMaxSourceBytes));
      std::string line;
      for (int number = 1; std::getline(source, line); ++number) {
        if (!isDeclaration(line)) {
          return "its file '" + entry.name + "' holds code at line " + std::to_string(number) +
                 ", where a checkpoint declares attributes only";
        }
      }
    }
    return {};
  } catch (const std::runtime_error& error) {
    return error.what();
  }
}

}  // namespace mrnn::engine
