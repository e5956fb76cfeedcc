#include "engine/data/id_buffer.h"

#include <algorithm>

#include "engine/data/token_storage.h"

namespace mrnn::engine {

IdBuffer::IdBuffer(int64_t count, int64_t vocabularySize)
    : width_(idWidthFor(vocabularySize)), count_(count) {
  // new[] without () leaves the bytes uninitialised: no page is touched before it is written.
  data_.reset(new uint8_t[static_cast<size_t>(std::max<int64_t>(count_, 1) * width_)]);
}

TokenStream IdBuffer::finish() {
  const int64_t count = count_;
  count_ = 0;
  auto storage = std::make_shared<const TokenStream::Storage>(std::move(data_), width_, count);
  return TokenStream(std::move(storage), 0, count);
}

}  // namespace mrnn::engine
