#include "engine/store/text_format.h"

#include <ctime>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace mrnn::engine {
namespace {

bool isContinuation(unsigned char byte) {
  return (byte & 0xC0) == 0x80;
}

// Length of the valid UTF-8 sequence starting at `i`, or 0 when it is not one (overlong
// forms, surrogates and code points above U+10FFFF included).
size_t utf8SequenceLength(const std::string& text, size_t i) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = at(i);
  size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (at(i + 1) < low || at(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (!isContinuation(at(i + k))) return 0;
  }
  return length;
}

}  // namespace

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

std::string terminalText(const std::string& text, bool keepLineBreaks) {
  std::string out;
  out.reserve(text.size());
  const auto escaped = [&out](unsigned char byte) {
    char code[8];
    std::snprintf(code, sizeof code, "\\x%02X", byte);
    out += code;
  };
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      const size_t length = utf8SequenceLength(text, i);
      // U+0080..U+009F (C2 80..C2 9F) are the C1 controls: CSI, OSC, ...
      const bool control =
          length == 2 && byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
      if (length == 0 || control) {
        for (size_t k = 0; k < std::max<size_t>(length, 1); ++k) {
          escaped(static_cast<unsigned char>(text[i + k]));
        }
        i += std::max<size_t>(length, 1);
      } else {
        out.append(text, i, length);
        i += length;
      }
      continue;
    }
    if ((byte < 0x20 && !(keepLineBreaks && byte == '\n')) || byte == 0x7F) {
      escaped(byte);
    } else {
      out += static_cast<char>(byte);
    }
    ++i;
  }
  return out;
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      const size_t length = utf8SequenceLength(text, i);
      if (length == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(text, i, length);
        i += length;
      }
      continue;
    }
    switch (byte) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
          out += escaped;
        } else {
          out += static_cast<char>(byte);
        }
    }
    ++i;
  }
  out += '"';
  return out;
}

std::string formatDouble(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // std::to_chars without a precision gives the shortest text that round-trips exactly,
  // independent of the C locale (a GUI may have set a decimal comma).
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string jsonNumber(double value) {
  return std::isfinite(value) ? formatDouble(value) : "null";
}

std::string jsonNumber(const std::optional<double>& value) {
  return value ? jsonNumber(*value) : "null";
}

std::string csvNumber(const std::optional<double>& value) {
  return value ? formatDouble(*value) : "";
}

std::string tableFigure(double value, int decimals) {
  if (!std::isfinite(value)) return formatDouble(value);
  char buffer[64];
  const bool large = std::fabs(value) >= 1e9;
  const auto result = std::to_chars(
      buffer, buffer + sizeof buffer, value,
      large ? std::chars_format::scientific : std::chars_format::fixed, large ? 3 : decimals);
  return std::string(buffer, result.ptr);
}

std::string groupedInteger(int64_t value) {
  std::string digits = std::to_string(value);
  const int first = digits[0] == '-' ? 1 : 0;
  for (int i = static_cast<int>(digits.size()) - 3; i > first; i -= 3) {
    digits.insert(static_cast<size_t>(i), ",");
  }
  return digits;
}

std::string compactDuration(double seconds) {
  const auto total = static_cast<long long>(seconds + 0.5);
  char text[40];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%lldh%02lldm%02llds", total / 3600, total / 60 % 60,
                  total % 60);
  } else {
    std::snprintf(text, sizeof text, "%lldm%02llds", total / 60, total % 60);
  }
  return text;
}

std::string utcTimestamp() {
  return utcTimestampOf(std::time(nullptr));
}

std::string utcTimestampOf(std::time_t when) {
  std::tm utc{};
  gmtime_r(&when, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace mrnn::engine
