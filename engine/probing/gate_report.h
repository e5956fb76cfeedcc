#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mrnn::engine {

// One probe of one layer over a whole text: row-major [steps x units]. Either `values`
// (float32) or `half` (binary16, half the memory for long texts) is filled, never both.
struct ProbeTrace {
  std::string name;   // "layer<N>/<probe>", as the ProbeRecorder names it
  int64_t layer = 0;  // N, counted from 1
  std::string probe;  // the part after the slash, for example "f" or "major.i"
  int64_t steps = 0;
  int64_t units = 0;
  bool isGate = false;  // sigmoid-valued (i f o z r): saturation is meaningful
  std::vector<float> values;
  std::vector<uint16_t> half;

  bool isHalf() const { return !half.empty(); }
  // The values as float32 whatever the storage.
  std::vector<float> floats() const;
  float at(int64_t step, int64_t unit) const;
};

// Melis et al. §4.4 compare LSTM gates by their means and variances and ask whether they
// saturate; these are those figures over every step and unit of one probe.
struct GateStatistics {
  std::string name;
  bool isGate = false;
  double mean = 0.0;
  double variance = 0.0;           // population variance
  double saturatedFraction = 0.0;  // values < 0.1 or > 0.9
  int64_t count = 0;
};

struct GateReport {
  std::vector<std::string> symbols;  // the text, one entry per step
  std::vector<ProbeTrace> traces;
  std::vector<GateStatistics> statistics;  // one per trace, same order
};

// True for the sigmoid-valued probes: i f o z r, also as "major.i" or "minor.f". Not the
// candidate j, the memory c, the output h, the factor states m or the Mogrifier's x/h rounds.
bool isGateProbe(const std::string& probe);

// Mean, variance and saturated fraction of `values` (statistics in double precision).
GateStatistics gateStatistics(const std::string& name, bool isGate,
                              const std::vector<float>& values);

}  // namespace mrnn::engine
