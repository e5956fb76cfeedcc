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
  // "engine mlstm", "torch::nn::LSTM", "peer mlstm", ...; with " fp32" or " bf16" when the
  // suite measures at a precision other than fp32 alone; then kBusySuffix for busy rows.
  std::string subject;
  std::string cell;  // the cell it runs: an engine type, "torch-lstm", or the peer's kind
  BenchMeasure measure = BenchMeasure::Train;
  std::vector<double> rates;    // symbols/s, one per round
  std::vector<double> peakMb;   // the measuring process's peak resident memory, per round
  double flopsPerSymbol = 0.0;  // flop_count.h; 0 when unknown
  int64_t parameters = 0;
  bool peer = false;  // the Python peer, run as a script (no evaluation mode)
  bool busy = false;  // measured with one processor kept busy (the contention mode)
  BenchPrecision precision = BenchPrecision::Fp32;
  std::vector<double> gpuMemoryBytes{};  // per round where the probe reported it (CUDA)

  double medianRate() const;
  double medianPeakMb() const;
  double medianGpuMemoryBytes() const;  // 0 when never reported
  double gflopsPerSecond() const;       // at the median rate
};

// A subject's row name at a precision: `base` alone when `labelled` is false (the suite
// measures fp32 only), else "base fp32" / "base bf16".
std::string benchSubjectName(const std::string& base, BenchPrecision precision, bool labelled);

struct BenchReport {
  BenchShape shape;
  int repeats = 0;
  std::string machine;  // CPU, cores, threads
  std::string gpu;   // on CUDA: the GPU as the ceiling probe named it ("cuda:0 (NVIDIA H100 ...)")
  std::string blas;  // which BLAS kernels the engine's processes ran
  std::string libtorch;
  double suiteResidentMb = 0.0;  // the suite's own peak: the floor of every child's peak
  std::vector<BenchRow> rows;
  // The precisions every subject was measured at (the peer: fp32 only).
  std::vector<BenchPrecision> precisions{BenchPrecision::Fp32};
  // The machine's product ceiling (product_ceiling.h), once per round; empty when it was
  // not measured. Rows' GFLOP/s are shown as a share of its median. On CUDA: a float32 and
  // a bfloat16 product on the GPU, each row read against its own precision's.
  std::vector<double> ceilingGflops;
  std::vector<double> ceilingBf16Gflops;
  // What the suite left out and why, each a line the report ends with ("peer left out: ...").
  std::vector<std::string> notes;

  bool onCuda() const;  // shape.device names a GPU: rates in TFLOP/s, the GPU targets printed
};

// The median of `values` (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> values);

// A markdown page: the machine, its product ceiling, the shape, one table per measure with
// medians, runs, GFLOP/s (TFLOP/s on CUDA) and their share of the ceiling, peak memory, GPU
// memory where probes reported it, and the ratios to the peer of the same cell, to
// torch::nn::LSTM and (measured at both) of bf16 to fp32, all at the same precision; on CUDA
// the GPU targets as ratios (mLSTM / cuDNN LSTM >= 0.8, mLSTM / peer >= 3,
// bf16 / fp32 >= 1.5 for the engine's cells, training); and the command that reproduces it.
std::string formatBenchReport(const BenchReport& report, const std::string& command);
// Whether `head` (a file's first bytes) starts as every formatBenchReport text does: a report
// written before, which `mrnn bench --markdown` may replace.
bool startsAsBenchReport(const std::string& head);

}  // namespace mrnn::engine
