#pragma once

// A minimal test harness for the engine tests. The engine and its tests must build and run
// on GPU machines without Qt (MRNN_BUILD_GUI=OFF), so they cannot use Qt Test; the widget
// tests do. Output follows Qt Test's shape ("PASS   : name", "FAIL!  : name", a Totals line);
// a test that cannot run here calls MRNN_SKIP and is reported skipped, never passed. An
// executable whose every test skipped exits 77, which CTest reports as skipped. The macros
// are EXPECT*, not CHECK*: LibTorch brings in glog, which owns CHECK*.

#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace mrnn::test {

struct TestCase {
  std::string name;
  std::function<void()> body;
};

std::vector<TestCase>& registry();

struct Registrar {
  Registrar(const char* name, std::function<void()> body) {
    registry().push_back({name, std::move(body)});
  }
};

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Skipped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void fail(const char* file, int line, const std::string& message) {
  std::ostringstream out;
  out << file << ":" << line << ": " << message;
  throw Failure(out.str());
}

template <class Actual, class Expected>
void expectEqual(const Actual& actual, const Expected& expected, const char* actualText,
                 const char* expectedText, const char* file, int line) {
  if (actual == expected) return;
  std::ostringstream message;
  message << actualText << " == " << expectedText << " — got " << actual << ", expected "
          << expected;
  fail(file, line, message.str());
}

}  // namespace mrnn::test

#define MRNN_TEST_CONCAT2(a, b) a##b
#define MRNN_TEST_CONCAT(a, b) MRNN_TEST_CONCAT2(a, b)

#define MRNN_TEST(name)                                                                 \
  static void name();                                                                   \
  static const ::mrnn::test::Registrar MRNN_TEST_CONCAT(registrar_, name)(#name, name); \
  static void name()

#define EXPECT(condition)                                                 \
  do {                                                                    \
    if (!(condition)) ::mrnn::test::fail(__FILE__, __LINE__, #condition); \
  } while (0)

#define EXPECT_MSG(condition, message)                         \
  do {                                                         \
    if (!(condition)) {                                        \
      std::ostringstream mrnn_msg_;                            \
      mrnn_msg_ << #condition << " — " << message;             \
      ::mrnn::test::fail(__FILE__, __LINE__, mrnn_msg_.str()); \
    }                                                          \
  } while (0)

// One call, so that every temporary in `actual` and `expected` (a tensor whose sizes() are
// compared, a vector returned by value and indexed) lives until the comparison has been made
// and printed; references bound in statements of their own would outlive them.
#define EXPECT_EQ(actual, expected) \
  ::mrnn::test::expectEqual((actual), (expected), #actual, #expected, __FILE__, __LINE__)

#define EXPECT_NEAR(actual, expected, tolerance)                                          \
  do {                                                                                    \
    const double mrnn_a_ = static_cast<double>(actual);                                   \
    const double mrnn_e_ = static_cast<double>(expected);                                 \
    if (!(std::fabs(mrnn_a_ - mrnn_e_) <= (tolerance))) {                                 \
      std::ostringstream mrnn_msg_;                                                       \
      mrnn_msg_.precision(12);                                                            \
      mrnn_msg_ << #actual << " ~ " << #expected << " — got " << mrnn_a_ << ", expected " \
                << mrnn_e_ << " (tolerance " << (tolerance) << ")";                       \
      ::mrnn::test::fail(__FILE__, __LINE__, mrnn_msg_.str());                            \
    }                                                                                     \
  } while (0)

// Checks that `statement` throws `Exception` whose what() contains every given fragment.
#define EXPECT_THROWS_WITH(Exception, statement, ...)                                       \
  do {                                                                                      \
    bool mrnn_thrown_ = false;                                                              \
    try {                                                                                   \
      statement;                                                                            \
    } catch (const Exception& mrnn_error_) {                                                \
      mrnn_thrown_ = true;                                                                  \
      const std::string mrnn_what_ = mrnn_error_.what();                                    \
      for (const std::string mrnn_part_ : {__VA_ARGS__}) {                                  \
        if (mrnn_what_.find(mrnn_part_) == std::string::npos) {                             \
          ::mrnn::test::fail(__FILE__, __LINE__,                                            \
                             "message '" + mrnn_what_ + "' lacks '" + mrnn_part_ + "'");    \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
    if (!mrnn_thrown_) ::mrnn::test::fail(__FILE__, __LINE__, #statement " did not throw"); \
  } while (0)

#define MRNN_SKIP(reason) throw ::mrnn::test::Skipped(reason)
