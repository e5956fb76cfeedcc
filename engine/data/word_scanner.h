#pragma once

#include <cstdint>
#include <string_view>

#include "engine/data/mapped_file.h"
#include "engine/data/text_check.h"
#include "engine/data/utf8.h"

namespace mrnn::engine {

// Walks the words of a corpus straight from the mapping: words are runs of non-whitespace
// (ASCII whitespace), and every line end is reported as an empty word (<eos>), as the PTB and
// WikiText loaders do (`line.split() + ['<eos>']`). A last line without a line end still ends
// with <eos> when it holds words. With `validate`, NUL bytes and invalid UTF-8 are errors
// naming the byte offset (raw corpora skip the check).
class WordScanner {
 public:
  WordScanner(const MappedFile& file, bool validate) : file_(file), validate_(validate) {}

  // Calls visit(word, byteOffset) for each word and visit("", offset) at each line end; a
  // false return stops.
  template <typename Visit>
  void scan(Visit&& visit) const {
    const uint8_t* data = file_.data();
    const int64_t size = file_.size();
    int64_t releaseAt = kReleaseChunk;
    int64_t i = 0;
    bool going = true;
    bool lineHasWords = false;
    while (going && i < size) {
      if (i >= releaseAt) {
        file_.releaseBefore(i);
        file_.checkStop();
        releaseAt = i + kReleaseChunk;
      }
      const uint8_t byte = data[i];
      if (byte == '\n') {
        going = visit(std::string_view(), i);
        lineHasWords = false;
        ++i;
      } else if (utf8::isSpace(byte)) {
        ++i;
      } else {
        const int64_t start = i;
        while (i < size && !utf8::isSpace(data[i])) i += validate_ ? checkedLength(i) : 1;
        going = visit(std::string_view(reinterpret_cast<const char*>(data + start),
                                       static_cast<size_t>(i - start)),
                      start);
        lineHasWords = true;
      }
    }
    if (going && lineHasWords) visit(std::string_view(), size);
    file_.releaseBefore(i);
    file_.checkUnchanged();
  }

 private:
  int checkedLength(int64_t i) const {
    const uint8_t byte = file_.data()[i];
    if (byte != 0 && byte < 0x80) return 1;
    uint32_t codePoint = 0;
    const int length =
        byte == 0 ? 0 : utf8::decode(file_.data() + i, file_.data() + file_.size(), codePoint);
    if (length == 0) throwNotText(file_, i);
    return length;
  }

  const MappedFile& file_;
  bool validate_;
};

}  // namespace mrnn::engine
