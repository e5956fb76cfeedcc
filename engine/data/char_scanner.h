#pragma once

#include <cstdint>

#include "engine/data/mapped_file.h"
#include "engine/data/text_check.h"
#include "engine/data/utf8.h"

namespace mrnn::engine {

// Walks the characters of a text corpus as Unicode code points, straight from the mapping:
// no string per symbol, so decoding 100 MB costs no more than the ids it produces.
// Plain text: every code point is a symbol. ptb-char: symbols are single characters separated
// by spaces, '_' stands for a space and each line end is the symbol '\n'.
// NUL bytes and invalid UTF-8 are errors naming the byte offset.
class CharScanner {
 public:
  CharScanner(const MappedFile& file, bool ptbChar) : file_(file), ptbChar_(ptbChar) {}

  // Calls visit(codePoint, byteOffset) for each symbol in order; a false return stops.
  template <typename Visit>
  void scan(Visit&& visit) const {
    const uint8_t* data = file_.data();
    const uint8_t* end = data + file_.size();
    const int64_t size = file_.size();
    int64_t releaseAt = kReleaseChunk;
    int64_t i = 0;
    bool going = true;
    while (going && i < size) {
      if (i >= releaseAt) {
        file_.releaseBefore(i);
        file_.checkStop();
        releaseAt = i + kReleaseChunk;
      }
      const uint8_t byte = data[i];
      if (ptbChar_ && utf8::isSpace(byte)) {
        if (byte == '\n') going = visit(uint32_t{'\n'}, i);
        ++i;
        continue;
      }
      uint32_t codePoint = byte;
      int length = 1;
      if (byte == 0 || byte >= 0x80) {
        length = byte == 0 ? 0 : utf8::decode(data + i, end, codePoint);
        if (length == 0) throwNotText(file_, i);
      }
      if (ptbChar_) {
        if (i + length < size && !utf8::isSpace(data[i + length])) throwLongPtbSymbol(file_, i);
        if (codePoint == '_') codePoint = ' ';
      }
      going = visit(codePoint, i);
      i += length;
    }
    file_.releaseBefore(i);
    file_.checkUnchanged();
  }

 private:
  const MappedFile& file_;
  bool ptbChar_;
};

}  // namespace mrnn::engine
