#include <cstdio>
#include <exception>
#include <string>

#include "engine/runtime/blas_kernels.h"
#include "test_harness.h"

namespace mrnn::test {

std::vector<TestCase>& registry() {
  static std::vector<TestCase> tests;
  return tests;
}

}  // namespace mrnn::test

// Runs every registered test, or those whose name contains argv[1].
int main(int argc, char** argv) {
  // As mrnn does: the tests run the kernels users get (and run faster on CPUs OpenBLAS 0.3.21
  // does not recognise).
  mrnn::engine::relaunchWithBetterBlasKernels(argv);
  const std::string filter = argc > 1 ? argv[1] : "";
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  for (const auto& test : mrnn::test::registry()) {
    if (!filter.empty() && test.name.find(filter) == std::string::npos) continue;
    try {
      test.body();
      ++passed;
      std::printf("PASS   : %s\n", test.name.c_str());
    } catch (const mrnn::test::Skipped& skip) {
      ++skipped;
      std::printf("SKIP   : %s (%s)\n", test.name.c_str(), skip.what());
    } catch (const mrnn::test::Failure& failure) {
      ++failed;
      std::printf("FAIL!  : %s\n         %s\n", test.name.c_str(), failure.what());
    } catch (const std::exception& error) {
      ++failed;
      std::printf("FAIL!  : %s\n         unexpected exception: %s\n", test.name.c_str(),
                  error.what());
    }
    std::fflush(stdout);
  }
  std::printf("Totals: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
  if (failed > 0) return 1;
  if (passed == 0 && skipped > 0) return 77;
  return passed > 0 ? 0 : 1;  // an empty run is a failure, not a pass
}
