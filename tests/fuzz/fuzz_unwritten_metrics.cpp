// The metric points a stopped run kept for a held database (engine/store/unwritten_metrics.h),
// read as a resume reads them; what reads must write back to the same points.
#include <cstdlib>

#include "engine/store/unwritten_metrics.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto points =
        mrnn::engine::parseUnwrittenMetrics(mrnn::fuzz::asText(data, size), "unwritten.tsv");
    const auto again = mrnn::engine::parseUnwrittenMetrics(
        mrnn::engine::unwrittenMetricsText(points), "unwritten.tsv");
    if (again.size() != points.size()) std::abort();
  } catch (const mrnn::engine::UnwrittenMetricsError&) {
  }
  return 0;
}
