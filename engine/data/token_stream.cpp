#include "engine/data/token_stream.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "engine/data/id_buffer.h"
#include "engine/data/mapped_file.h"
#include "engine/data/token_storage.h"

namespace mrnn::engine {
namespace {

template <typename Id>
void widen(const uint8_t* bytes, int64_t start, int64_t count, int64_t* out) {
  // memcpy per id: the owned arrays are byte arrays, so no aliasing or alignment assumptions.
  for (int64_t i = 0; i < count; ++i) {
    Id id;
    std::memcpy(&id, bytes + (start + i) * static_cast<int64_t>(sizeof(Id)), sizeof(Id));
    out[i] = static_cast<int64_t>(id);
  }
}

}  // namespace

TokenStream::TokenStream() = default;
TokenStream::~TokenStream() = default;
// A moved-from stream is empty, not a dangling view.
TokenStream::TokenStream(TokenStream&& other) noexcept
    : storage_(std::move(other.storage_)), start_(other.start_), count_(other.count_) {
  other.start_ = 0;
  other.count_ = 0;
}
TokenStream& TokenStream::operator=(TokenStream&& other) noexcept {
  storage_ = std::move(other.storage_);
  start_ = std::exchange(other.start_, 0);
  count_ = std::exchange(other.count_, 0);
  return *this;
}
TokenStream::TokenStream(const TokenStream&) = default;
TokenStream& TokenStream::operator=(const TokenStream&) = default;

TokenStream::TokenStream(std::shared_ptr<const Storage> storage, int64_t start, int64_t count)
    : storage_(std::move(storage)), start_(start), count_(count) {
  const int64_t available = storage_ ? storage_->count() : 0;
  if (start < 0 || count < 0 || start + count > available)
    throw std::out_of_range("token stream: range outside its storage");
}

TokenStream TokenStream::fromIds(const std::vector<int64_t>& ids, int64_t vocabularySize) {
  int64_t size = vocabularySize;
  for (const int64_t id : ids) {
    if (id < 0 || (vocabularySize > 0 && id >= vocabularySize))
      throw std::invalid_argument("token stream: id " + std::to_string(id) +
                                  " outside the vocabulary");
    if (vocabularySize <= 0) size = std::max(size, id + 1);
  }
  IdBuffer buffer(static_cast<int64_t>(ids.size()), size);
  for (size_t i = 0; i < ids.size(); ++i)
    buffer.set(static_cast<int64_t>(i), static_cast<uint32_t>(ids[i]));
  return buffer.finish();
}

TokenStream TokenStream::fromMappedFile(std::shared_ptr<const MappedFile> file) {
  auto storage = std::make_shared<const Storage>(std::move(file));
  const int64_t count = storage->count();
  return TokenStream(std::move(storage), 0, count);
}

int64_t TokenStream::size() const {
  return count_;
}

int TokenStream::bytesPerSymbol() const {
  return storage_ ? storage_->width() : 1;
}

int64_t TokenStream::at(int64_t index) const {
  if (index < 0 || index >= count_)
    throw std::out_of_range("token stream: index " + std::to_string(index) + " of " +
                            std::to_string(count_));
  int64_t id = 0;
  copy(index, 1, &id);
  return id;
}

void TokenStream::copy(int64_t start, int64_t count, int64_t* out) const {
  if (start < 0 || count < 0 || start + count > count_)
    throw std::out_of_range("token stream: copy of [" + std::to_string(start) + ", " +
                            std::to_string(start + count) + ") from " + std::to_string(count_));
  if (count == 0) return;
  const uint8_t* bytes = storage_->data();
  switch (storage_->width()) {
    case 1:
      widen<uint8_t>(bytes, start_ + start, count, out);
      break;
    case 2:
      widen<uint16_t>(bytes, start_ + start, count, out);
      break;
    default:
      widen<uint32_t>(bytes, start_ + start, count, out);
  }
  // A mapped corpus truncated under the run read as zeros: fail naming the file.
  if (const MappedFile* file = storage_->file()) file->checkUnchanged();
}

TokenStream TokenStream::slice(int64_t start, int64_t count) const {
  if (start < 0 || count < 0 || start + count > count_)
    throw std::out_of_range("token stream: slice [" + std::to_string(start) + ", " +
                            std::to_string(start + count) + ") of " + std::to_string(count_));
  return TokenStream(storage_, start_ + start, count);
}

int64_t TokenStream::storageBytes() const {
  return storage_ ? storage_->bytes() : 0;
}

}  // namespace mrnn::engine
