#include "engine/data/text_check.h"

#include <cstdio>
#include <string>

#include "engine/data/data_error.h"
#include "engine/data/mapped_file.h"
#include "engine/data/utf8.h"

namespace mrnn::engine {

void throwNotText(const MappedFile& file, int64_t offset) {
  file.checkUnchanged();  // the zeros past the end of a file that shrank are not the text
  const uint8_t byte = file.data()[offset];
  const auto [path, fileOffset] = file.locate(offset);  // which file, when several are joined
  const std::string where = path + ": ";
  const std::string at = " at byte offset " + std::to_string(fileOffset);
  if (byte == 0) {
    throw DataError(where + "binary data (a NUL byte" + at +
                    ") where text was expected; read binary corpora with level: byte or "
                    "format: raw");
  }
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", byte);
  throw DataError(where + "invalid UTF-8" + at + " (byte " + hex +
                  "); the file is not UTF-8 text: read it with level: byte or format: raw");
}

void throwLongPtbSymbol(const MappedFile& file, int64_t offset) {
  int64_t end = offset;
  while (end < file.size() && !utf8::isSpace(file.data()[end]) && end - offset < 32) ++end;
  const std::string symbol(reinterpret_cast<const char*>(file.data() + offset),
                           static_cast<size_t>(end - offset));
  const auto [path, fileOffset] = file.locate(offset);
  throw DataError(path + ": ptb-char symbol '" + symbol + "' at byte offset " +
                  std::to_string(fileOffset) +
                  " is more than one character (symbols are single characters separated by "
                  "spaces)");
}

}  // namespace mrnn::engine
