#pragma once

// Internal to engine/data: what a TokenStream's ids live in.

#include <cstdint>
#include <memory>

#include "engine/data/mapped_file.h"
#include "engine/data/token_stream.h"

namespace mrnn::engine {

// Either an owned array of 1-, 2- or 4-byte ids, or a memory-mapped file whose bytes are the
// ids (byte level: no copy at all).
class TokenStream::Storage {
 public:
  Storage(std::unique_ptr<uint8_t[]> owned, int width, int64_t count)
      : owned_(std::move(owned)), data_(owned_.get()), width_(width), count_(count) {}
  explicit Storage(std::shared_ptr<const MappedFile> file)
      : file_(std::move(file)), data_(file_->data()), width_(1), count_(file_->size()) {}

  const uint8_t* data() const { return data_; }
  const MappedFile* file() const { return file_.get(); }  // null for owned ids
  int width() const { return width_; }
  int64_t count() const { return count_; }
  int64_t bytes() const { return count_ * width_; }

 private:
  std::unique_ptr<uint8_t[]> owned_;
  std::shared_ptr<const MappedFile> file_;
  const uint8_t* data_;
  int width_;
  int64_t count_;
};

// The narrowest id width for a vocabulary: 1, 2 or 4 bytes.
inline int idWidthFor(int64_t vocabularySize) {
  return vocabularySize <= 256 ? 1 : vocabularySize <= 65536 ? 2 : 4;
}

}  // namespace mrnn::engine
