// The benchmarks' options: counts are whole, a refusal names the option and the value in one
// sentence, and nothing a user types reaches a library's own message ("stoll").

#include "bench/bench_options.h"

#include <string>
#include <vector>

#include "test_harness.h"

namespace {

using mrnn::bench::BenchOptionError;
using mrnn::bench::BenchOptions;

BenchOptions withArguments(const std::vector<std::string>& arguments) {
  BenchOptions options({{"seeds", "2"}, {"budget", "60"}, {"hidden", "auto"}, {"mu", "auto"}},
                       "usage: bench\n");
  EXPECT(options.parse(arguments));
  return options;
}

}  // namespace

MRNN_TEST(counts_are_whole_numbers) {
  EXPECT_EQ(withArguments({"--seeds", "3"}).whole("seeds", 1), 3);
  EXPECT_THROWS_WITH(BenchOptionError, withArguments({"--seeds", "2.5"}).whole("seeds", 1),
                     "--seeds takes a whole number of at least 1, not '2.5'");
  for (const char* bad : {"", "abc", "3x", " 3", "+3", "0x10", "99999999999999999999"}) {
    EXPECT_THROWS_WITH(BenchOptionError, withArguments({"--seeds", bad}).whole("seeds"),
                       std::string("--seeds takes a whole number"), std::string("'") + bad + "'");
  }
  EXPECT_THROWS_WITH(BenchOptionError, withArguments({"--seeds", "0"}).whole("seeds", 1),
                     "at least 1, not '0'");
}

MRNN_TEST(numbers_and_their_bounds) {
  EXPECT_NEAR(withArguments({"--budget", "1.5e2"}).real("budget"), 150.0, 0.0);
  EXPECT_THROWS_WITH(BenchOptionError, withArguments({"--budget", "-1"}).real("budget"),
                     "--budget takes a number of at least 0, not '-1'");
  EXPECT_THROWS_WITH(BenchOptionError, withArguments({"--budget", "nan"}).real("budget"),
                     "not 'nan'");
  EXPECT_THROWS_WITH(BenchOptionError, withArguments({"--budget", "0"}).positive("budget"),
                     "--budget takes a number above 0, not '0'");
}

MRNN_TEST(auto_or_a_value) {
  EXPECT(!withArguments({}).wholeOrAuto("hidden").has_value());
  EXPECT_EQ(*withArguments({"--hidden", "64"}).wholeOrAuto("hidden"), 64);
  EXPECT_THROWS_WITH(BenchOptionError, withArguments({"--hidden", "6.5"}).wholeOrAuto("hidden"),
                     "--hidden takes auto or a whole number of at least 0, not '6.5'");
  EXPECT_THROWS_WITH(BenchOptionError, withArguments({"--mu", "none"}).realOrAuto("mu"),
                     "--mu takes auto or a number of at least 0, not 'none'");
}

MRNN_TEST(unknown_options_and_missing_values) {
  BenchOptions options({{"seeds", "2"}}, "usage: bench\n");
  EXPECT_THROWS_WITH(BenchOptionError, options.parse({"--sedes", "2"}),
                     "unknown option --sedes (--help lists them)");
  EXPECT_THROWS_WITH(BenchOptionError, options.parse({"seeds", "2"}), "unknown option seeds");
  EXPECT_THROWS_WITH(BenchOptionError, options.parse({"--seeds"}), "--seeds needs a value");
  EXPECT(!options.parse({"--seeds", "4", "--help"}));
  EXPECT(!options.parse({"-h"}));
}

MRNN_TEST(whole_number_items_of_a_list) {
  EXPECT_EQ(mrnn::bench::wholeNumber("the length in xor:100", "100", 1), 100);
  EXPECT_THROWS_WITH(BenchOptionError, mrnn::bench::wholeNumber("the length in xor:1e2", "1e2"),
                     "the length in xor:1e2 takes a whole number of at least 0, not '1e2'");
}

MRNN_TEST(choices_name_what_they_take) {
  BenchOptions options({{"adam", "yes"}, {"init", "auto"}}, "usage: bench\n");
  EXPECT(options.parse({"--adam", "maybe", "--init", "sparse"}));
  EXPECT_EQ(options.choice("init", {"auto", "sparse", "orthogonal"}), std::string("sparse"));
  EXPECT_THROWS_WITH(BenchOptionError, options.choice("adam", {"yes", "no"}),
                     "--adam takes yes or no, not 'maybe'");
  EXPECT_THROWS_WITH(BenchOptionError, options.choice("init", {"auto", "orthogonal", "uniform"}),
                     "--init takes auto, orthogonal or uniform, not 'sparse'");
}
