#include "bench/bench_options.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace mrnn::bench {
namespace {

[[noreturn]] void refuse(const std::string& what, const std::string& wanted,
                         const std::string& text) {
  throw BenchOptionError(what + " takes " + wanted + ", not '" + text + "'");
}

std::string atLeastText(double bound) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", bound);
  return text;
}

// The whole text as one finite number, or nothing.
std::optional<double> finiteNumber(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

int64_t wholeNumber(const std::string& what, const std::string& text, int64_t atLeast) {
  const std::string wanted = "a whole number of at least " + std::to_string(atLeast);
  // strtoll alone would take " 7", "+7" and stop quietly at "7.5"'s point.
  if (text.empty() || !(text[0] == '-' || (text[0] >= '0' && text[0] <= '9'))) {
    refuse(what, wanted, text);
  }
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE || value < atLeast) refuse(what, wanted, text);
  return static_cast<int64_t>(value);
}

double realNumber(const std::string& what, const std::string& text, double atLeast) {
  const auto value = finiteNumber(text);
  if (!value || *value < atLeast)
    refuse(what, "a number of at least " + atLeastText(atLeast), text);
  return *value;
}

double positiveNumber(const std::string& what, const std::string& text) {
  const auto value = finiteNumber(text);
  if (!value || *value <= 0) refuse(what, "a number above 0", text);
  return *value;
}

BenchOptions::BenchOptions(std::map<std::string, std::string> defaults, std::string usage)
    : values_(std::move(defaults)), usage_(std::move(usage)) {}

bool BenchOptions::parse(const std::vector<std::string>& arguments) {
  for (size_t i = 0; i < arguments.size(); i += 2) {
    const std::string& key = arguments[i];
    if (key == "--help" || key == "-h") return false;
    if (key.rfind("--", 0) != 0 || !values_.count(key.substr(2))) {
      throw BenchOptionError("unknown option " + key + " (--help lists them)");
    }
    if (i + 1 == arguments.size()) throw BenchOptionError(key + " needs a value");
    values_[key.substr(2)] = arguments[i + 1];
  }
  return true;
}

const std::string& BenchOptions::text(const std::string& name) const {
  const auto found = values_.find(name);
  // A program asking for an option it did not declare is its own bug, not the user's.
  if (found == values_.end()) throw std::logic_error("undeclared bench option --" + name);
  return found->second;
}

int64_t BenchOptions::whole(const std::string& name, int64_t atLeast) const {
  return wholeNumber("--" + name, text(name), atLeast);
}

double BenchOptions::real(const std::string& name, double atLeast) const {
  return realNumber("--" + name, text(name), atLeast);
}

double BenchOptions::positive(const std::string& name) const {
  return positiveNumber("--" + name, text(name));
}

const std::string& BenchOptions::choice(const std::string& name,
                                        const std::vector<std::string>& allowed) const {
  const std::string& value = text(name);
  std::string list;
  for (size_t i = 0; i < allowed.size(); ++i) {
    if (allowed[i] == value) return value;
    list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + allowed[i];
  }
  refuse("--" + name, list, value);
}

std::optional<int64_t> BenchOptions::wholeOrAuto(const std::string& name, int64_t atLeast) const {
  if (text(name) == "auto") return std::nullopt;
  try {
    return whole(name, atLeast);
  } catch (const BenchOptionError&) {
    refuse("--" + name, "auto or a whole number of at least " + std::to_string(atLeast),
           text(name));
  }
}

std::optional<double> BenchOptions::realOrAuto(const std::string& name, double atLeast) const {
  if (text(name) == "auto") return std::nullopt;
  try {
    return real(name, atLeast);
  } catch (const BenchOptionError&) {
    refuse("--" + name, "auto or a number of at least " + atLeastText(atLeast), text(name));
  }
}

int runBench(int argc, char** argv, BenchOptions options,
             const std::function<int(const BenchOptions&)>& body) {
  try {
    if (!options.parse(std::vector<std::string>(argv + 1, argv + argc))) {
      std::fputs(options.usage().c_str(), stdout);
      return 0;
    }
    return body(options);
  } catch (const BenchOptionError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
}

}  // namespace mrnn::bench
