#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "command_line.h"

namespace mrnn::app {

// A positive integer option, or std::invalid_argument naming the option and the bad value.
inline int64_t positiveInteger(const CommandLine& args, const std::string& option,
                               int64_t fallback) {
  if (!args.has(option)) return fallback;
  const std::string raw = args.value(option);
  try {
    size_t used = 0;
    const int64_t value = std::stoll(raw, &used);
    if (used == raw.size() && value > 0) return value;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("--" + option + " expects a positive integer, got '" + raw + "'");
}

}  // namespace mrnn::app
