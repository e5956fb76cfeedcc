#pragma once

// UTF-8 decoding for the corpus readers: inline, because it runs once per byte of a corpus.

#include <cstdint>
#include <string>

namespace mrnn::engine::utf8 {

// Decodes the code point at p (p < end). Returns its length in bytes (1 to 4) and stores the
// code point, or returns 0 for an invalid sequence: a stray continuation byte, a truncated
// sequence, an overlong form, a surrogate or a value above U+10FFFF.
inline int decode(const uint8_t* p, const uint8_t* end, uint32_t& codePoint) {
  const uint32_t lead = p[0];
  if (lead < 0x80) {
    codePoint = lead;
    return 1;
  }
  int length = 0;
  uint32_t value = 0;
  uint32_t minimum = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, value = lead & 0x1F, minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, value = lead & 0x0F, minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, value = lead & 0x07, minimum = 0x10000;
  } else {
    return 0;
  }
  if (end - p < length) return 0;
  for (int i = 1; i < length; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    value = (value << 6) | (p[i] & 0x3F);
  }
  if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
  codePoint = value;
  return length;
}

// Bytes in the UTF-8 form of a code point.
inline int length(uint32_t codePoint) {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

inline void append(std::string& out, uint32_t codePoint) {
  if (codePoint < 0x80) {
    out += static_cast<char>(codePoint);
  } else if (codePoint < 0x800) {
    out += static_cast<char>(0xC0 | (codePoint >> 6));
    out += static_cast<char>(0x80 | (codePoint & 0x3F));
  } else if (codePoint < 0x10000) {
    out += static_cast<char>(0xE0 | (codePoint >> 12));
    out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (codePoint & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (codePoint >> 18));
    out += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (codePoint & 0x3F));
  }
}

inline std::string encode(uint32_t codePoint) {
  std::string out;
  append(out, codePoint);
  return out;
}

// ASCII whitespace separates words everywhere (word tokens, and word counts at every level).
inline bool isSpace(uint8_t byte) {
  return byte == ' ' || byte == '\n' || byte == '\t' || byte == '\r' || byte == '\v' ||
         byte == '\f';
}

}  // namespace mrnn::engine::utf8
