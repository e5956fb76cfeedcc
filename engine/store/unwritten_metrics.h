#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/store/run_store.h"

namespace mrnn::engine {

// Metric points a run could not write to its database (another program held it past the
// second a stop waits), kept in the run's checkpoint folder (RunPaths::unwrittenMetrics) until
// the run is resumed, which writes them. The file: a header line, then a point per line, its
// name, step, epoch, wall seconds and value, tab-separated, numbers as exact as a double.
std::string unwrittenMetricsText(const std::vector<MetricPoint>& points);

class UnwrittenMetricsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads such a file's text; throws UnwrittenMetricsError naming `file` and the line at fault.
std::vector<MetricPoint> parseUnwrittenMetrics(const std::string& text, const std::string& file);

}  // namespace mrnn::engine
