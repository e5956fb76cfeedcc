#pragma once

#include <cstdint>
#include <cstring>
#include <memory>

#include "engine/data/token_stream.h"

namespace mrnn::engine {

// Decoded ids of a known count, written once each, in the narrowest width for the
// vocabulary. The array is left uninitialised so that its pages become resident only as the
// decoder writes them.
class IdBuffer {
 public:
  IdBuffer(int64_t count, int64_t vocabularySize);

  int64_t count() const { return count_; }
  int width() const { return width_; }
  void set(int64_t index, uint32_t id) {
    switch (width_) {
      case 1:
        data_[index] = static_cast<uint8_t>(id);
        break;
      case 2: {
        const auto narrow = static_cast<uint16_t>(id);
        std::memcpy(data_.get() + index * 2, &narrow, 2);
        break;
      }
      default:
        std::memcpy(data_.get() + index * 4, &id, 4);
    }
  }
  // Hands the ids over to a stream; the buffer is empty afterwards.
  TokenStream finish();

 private:
  std::unique_ptr<uint8_t[]> data_;
  int width_;
  int64_t count_;
};

}  // namespace mrnn::engine
