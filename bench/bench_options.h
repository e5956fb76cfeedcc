#pragma once

// The command line of a developer benchmark: `--name value` pairs over a table of defaults,
// each value read as the kind of number it must be. A refusal is one sentence naming the
// option and the value (BenchOptionError), never a library's "stoll"; main prints it and
// exits 2 (runBench).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mrnn::bench {

struct BenchOptionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A number of the command line, read whole: "2.5" is refused where a count is wanted, and so
// is anything after the digits. `what` names it in the sentence ("--seeds", "the length").
int64_t wholeNumber(const std::string& what, const std::string& text, int64_t atLeast = 0);
double realNumber(const std::string& what, const std::string& text, double atLeast = 0);
double positiveNumber(const std::string& what, const std::string& text);

class BenchOptions {
 public:
  BenchOptions(std::map<std::string, std::string> defaults, std::string usage);

  // Reads the arguments after the program's name. Returns false where --help or -h asked for
  // the usage text (the caller prints usage() and exits 0).
  bool parse(const std::vector<std::string>& arguments);

  const std::string& usage() const { return usage_; }
  const std::string& text(const std::string& name) const;
  int64_t whole(const std::string& name, int64_t atLeast = 0) const;
  double real(const std::string& name, double atLeast = 0) const;
  double positive(const std::string& name) const;
  // One of `allowed` ("--adam takes yes or no, not 'maybe'").
  const std::string& choice(const std::string& name, const std::vector<std::string>& allowed) const;
  // Options whose default is "auto" (the program's own choice): empty there.
  std::optional<int64_t> wholeOrAuto(const std::string& name, int64_t atLeast = 0) const;
  std::optional<double> realOrAuto(const std::string& name, double atLeast = 0) const;

 private:
  std::map<std::string, std::string> values_;
  std::string usage_;
};

// main's body with the options read: --help prints the usage (exit 0); a refused option or
// value, read then or later in `body`, prints its sentence (exit 2).
int runBench(int argc, char** argv, BenchOptions options,
             const std::function<int(const BenchOptions&)>& body);

}  // namespace mrnn::bench
