#include "engine/store/unwritten_metrics.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace mrnn::engine {
namespace {

const char* const kHeader =
    "# mRNN Workbench: metric points not yet in runs.sqlite\tstep\tepoch\t"
    "wall_s\tvalue";

std::string exact(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// The fields of `line`, split at tabs.
std::vector<std::string> fieldsOf(const std::string& line) {
  std::vector<std::string> fields(1);
  for (const char c : line) {
    if (c == '\t') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

}  // namespace

std::string unwrittenMetricsText(const std::vector<MetricPoint>& points) {
  std::string text = std::string(kHeader) + "\n";
  for (const MetricPoint& point : points) {
    // Names are the workbench's own ("train/loss"); one that could break a line is left out.
    if (point.name.empty() || point.name.find_first_of("\t\n\r") != std::string::npos) continue;
    text += point.name + "\t" + std::to_string(point.step) + "\t" + exact(point.epoch) + "\t" +
            exact(point.wallSeconds) + "\t" + exact(point.value) + "\n";
  }
  return text;
}

std::vector<MetricPoint> parseUnwrittenMetrics(const std::string& text, const std::string& file) {
  std::vector<MetricPoint> points;
  size_t start = 0;
  int line = 0;
  const auto fail = [&](const std::string& why) {
    throw UnwrittenMetricsError(file + ":" + std::to_string(line) + ": " + why);
  };
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      ++line;
      fail("the last line is cut short (the file was not written whole)");
    }
    const std::string row = text.substr(start, end - start);
    start = end + 1;
    if (++line == 1) {
      if (row != kHeader) fail("this is not a file of a run's unwritten metric points");
      continue;
    }
    const std::vector<std::string> fields = fieldsOf(row);
    if (fields.size() != 5 || fields[0].empty() || fields[0].find('\r') != std::string::npos) {
      fail("expected a name and four numbers, tab-separated");
    }
    MetricPoint point;
    point.name = fields[0];
    char* rest = nullptr;
    errno = 0;
    const long long step = std::strtoll(fields[1].c_str(), &rest, 10);
    if (fields[1].empty() || *rest != '\0' || errno != 0 || step < 0) {
      fail("'" + fields[1] + "' is not a step");
    }
    point.step = step;
    double* numbers[] = {&point.epoch, &point.wallSeconds, &point.value};
    for (int i = 0; i < 3; ++i) {
      const std::string& field = fields[static_cast<size_t>(i) + 2];
      *numbers[i] = std::strtod(field.c_str(), &rest);
      if (field.empty() || *rest != '\0') fail("'" + field + "' is not a number");
    }
    points.push_back(std::move(point));
  }
  if (line == 0) fail("the file is empty");
  return points;
}

}  // namespace mrnn::engine
