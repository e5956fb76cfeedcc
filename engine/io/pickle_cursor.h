#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mrnn::engine {

// A pickle's bytes read instruction by instruction, each read checked against what is left:
// the one place both pickle readers (the state-dict unpickler, the checkpoint's pickle walk)
// take bytes. A read past the end throws PickleCutOff, which each reader turns into its own
// error in its own words.
struct PickleCutOff {
  bool beforeStop = false;  // the end came where an instruction should start (no STOP)
};

class PickleCursor {
 public:
  explicit PickleCursor(const std::string& data) : data_(data) {}

  bool atEnd() const { return pos_ >= data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  // The next instruction's code (where it starts is kept for messages). Throws PickleCutOff at
  // the end.
  unsigned char opcode() {
    if (atEnd()) throw PickleCutOff{true};
    opcodeAt_ = pos_;
    return static_cast<unsigned char>(data_[pos_++]);
  }
  size_t opcodeAt() const { return opcodeAt_; }

  const char* take(size_t n) {
    if (remaining() < n) throw PickleCutOff{};
    const char* at = data_.data() + pos_;
    pos_ += n;
    return at;
  }
  // An unsigned little-endian number of `n` bytes (at most 8).
  uint64_t unsignedLe(size_t n) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(take(n));
    uint64_t value = 0;
    for (size_t i = 0; i < n && i < 8; ++i) value |= static_cast<uint64_t>(bytes[i]) << (8 * i);
    return value;
  }
  // The text up to the next line break (which is read too).
  std::string line() {
    const size_t end = data_.find('\n', pos_);
    if (end == std::string::npos) throw PickleCutOff{};
    std::string text = data_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return text;
  }

 private:
  const std::string& data_;
  size_t pos_ = 0;
  size_t opcodeAt_ = 0;
};

}  // namespace mrnn::engine
