#include "engine/probing/gate_report.h"

#include <stdexcept>

#include "engine/probing/half_float.h"

namespace mrnn::engine {

std::vector<float> ProbeTrace::floats() const {
  return isHalf() ? fromHalf(half) : values;
}

float ProbeTrace::at(int64_t step, int64_t unit) const {
  if (step < 0 || step >= steps || unit < 0 || unit >= units) {
    throw std::out_of_range(name + ": no value at step " + std::to_string(step) + ", unit " +
                            std::to_string(unit));
  }
  const auto index = static_cast<size_t>(step * units + unit);
  return isHalf() ? halfToFloat(half[index]) : values[index];
}

bool isGateProbe(const std::string& probe) {
  std::string base = probe;
  for (const char* prefix : {"major.", "minor."}) {
    const std::string p = prefix;
    if (base.rfind(p, 0) == 0) base = base.substr(p.size());
  }
  return base == "i" || base == "f" || base == "o" || base == "z" || base == "r";
}

GateStatistics gateStatistics(const std::string& name, bool isGate,
                              const std::vector<float>& values) {
  GateStatistics stats;
  stats.name = name;
  stats.isGate = isGate;
  stats.count = static_cast<int64_t>(values.size());
  if (values.empty()) return stats;
  double sum = 0.0;
  int64_t saturated = 0;
  for (const float v : values) {
    sum += v;
    if (v < 0.1f || v > 0.9f) ++saturated;
  }
  const double n = static_cast<double>(values.size());
  stats.mean = sum / n;
  // Two passes: the textbook one-pass formula loses digits when the variance is tiny.
  double squares = 0.0;
  for (const float v : values) squares += (v - stats.mean) * (v - stats.mean);
  stats.variance = squares / n;
  stats.saturatedFraction = static_cast<double>(saturated) / n;
  return stats;
}

}  // namespace mrnn::engine
