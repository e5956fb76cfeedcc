#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/bench/bench_shape.h"

namespace mrnn::engine {

// The repeats of one subject (an engine cell, torch::nn::LSTM or the Python peer) on one
// measure.
// What a subject's name gains when it is measured beside a busy processor.
inline constexpr const char* kBusySuffix = " · 1 core busy";

struct BenchRow {
  std::string subject;  // "engine mlstm", "torch::nn::LSTM", "peer mlstm", ... (+ kBusySuffix)
  std::string cell;     // the cell it runs: an engine type, "torch-lstm", or the peer's kind
  BenchMeasure measure = BenchMeasure::Train;
  std::vector<double> rates;    // symbols/s, one per round
  std::vector<double> peakMb;   // the measuring process's peak resident memory, per round
  double flopsPerSymbol = 0.0;  // flop_count.h; 0 when unknown
  int64_t parameters = 0;
  bool peer = false;  // the Python peer, run as a script (no evaluation mode)
  bool busy = false;  // measured with one processor kept busy (the contention mode)

  double medianRate() const;
  double medianPeakMb() const;
  double gflopsPerSecond() const;  // at the median rate
};

struct BenchReport {
  BenchShape shape;
  int repeats = 0;
  std::string machine;  // CPU or GPU, cores, threads
  std::string blas;     // which BLAS kernels the engine's processes ran
  std::string libtorch;
  double suiteResidentMb = 0.0;  // the suite's own peak: the floor of every child's peak
  std::vector<BenchRow> rows;
  // The machine's product ceiling (product_ceiling.h), once per round; empty when it was
  // not measured. Rows' GFLOP/s are shown as a share of its median.
  std::vector<double> ceilingGflops;
  // What the suite left out and why, each a line the report ends with ("peer left out: ...").
  std::vector<std::string> notes;

  const BenchRow* find(const std::string& subject, BenchMeasure measure) const;
};

// The median of `values` (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> values);

// A markdown page: the machine, its product ceiling, the shape, one table per measure with
// medians, runs, GFLOP/s and their share of the ceiling, peak memory and the ratios to the peer of
// the same cell and to torch::nn::LSTM, and the command that reproduces it.
std::string formatBenchReport(const BenchReport& report, const std::string& command);

}  // namespace mrnn::engine
