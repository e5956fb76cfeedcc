#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "command_line.h"
#include "engine/config/device_name.h"
#include "engine/runtime/machine_resources.h"

namespace mrnn::app {

// A bad command line (an option value out of range, a missing option): main() prints it and
// exits 2, where other failures exit 1.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Ranges of integer options the engine's config does not already bound: parsed as 64-bit and
// refused past these, never wrapped.
constexpr int64_t kMaxRankTimeout = 7 * 24 * 3600;  // --timeout, seconds: a week
constexpr int64_t kMaxBenchRepeats = 1000;          // mrnn bench --repeats

// A positive integer option, or a UsageError naming the option and the bad value.
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
  throw UsageError("--" + option + " expects a positive integer, got '" + raw + "'");
}

// An integer option within [low, high], or a UsageError naming the option and the bad value.
inline int64_t boundedInteger(const CommandLine& args, const std::string& option, int64_t fallback,
                              int64_t low, int64_t high) {
  if (!args.has(option)) return fallback;
  const std::string raw = args.value(option);
  try {
    size_t used = 0;
    const int64_t value = std::stoll(raw, &used);
    if (used == raw.size() && value >= low && value <= high) return value;
  } catch (const std::exception&) {
  }
  throw UsageError("--" + option + " expects an integer from " + std::to_string(low) + " to " +
                   std::to_string(high) + ", got '" + raw + "'");
}

// --threads: a positive integer up to engine::kMaxThreads (the YAML key's limit), or a
// UsageError; 0 when absent. The engine caps it at the machine's processors.
inline int64_t threadsOption(const CommandLine& args) {
  const int64_t threads = positiveInteger(args, "threads", 0);
  if (threads > engine::kMaxThreads) {
    throw UsageError("--threads " + std::to_string(threads) + " is more than " +
                     std::to_string(engine::kMaxThreads) + " (this machine gives the process " +
                     std::to_string(engine::hardwareThreads()) + " processors)");
  }
  return threads;
}

// --device: "cpu", "cuda" or "cuda:N", or a UsageError. Whether this build and machine have
// that device is the engine's to say (resolveComputeDevice), where it is used.
inline std::string deviceOption(const CommandLine& args, const std::string& fallback = "cpu") {
  if (!args.has("device")) return fallback;
  const std::string raw = args.value("device");
  if (!engine::parseDeviceName(raw)) {
    throw UsageError(engine::deviceNameProblem("--device", raw));
  }
  return raw;
}

// A number option within [low, high] ((low, high] when lowInclusive is false), or a UsageError.
inline double numberOption(const CommandLine& args, const std::string& option, double fallback,
                           double low = -std::numeric_limits<double>::infinity(),
                           double high = std::numeric_limits<double>::infinity(),
                           bool lowInclusive = true) {
  if (!args.has(option)) return fallback;
  const std::string raw = args.value(option);
  // strtod, not stod: a number too small for a double (1e-400) reads as 0 or a subnormal and
  // meets the range check like any other, rather than being "not a number".
  char* end = nullptr;
  const double value = raw.empty() ? 0.0 : std::strtod(raw.c_str(), &end);
  const bool whole = !raw.empty() && end == raw.c_str() + raw.size();
  if (whole && std::isfinite(value) && (lowInclusive ? value >= low : value > low) &&
      value <= high) {
    return value;
  }
  std::ostringstream expected;
  expected << "a number";
  if (std::isfinite(low) || std::isfinite(high)) {
    expected << " in " << (lowInclusive ? "[" : "(") << low << ", " << high << "]";
  }
  throw UsageError("--" + option + " expects " + expected.str() + ", got '" + raw + "'");
}

}  // namespace mrnn::app
