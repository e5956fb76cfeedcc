#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/bench/bench_report.h"
#include "engine/bench/bench_shape.h"
#include "engine/bench/probe_result.h"

namespace mrnn::engine {

class JobContext;

struct BenchSuiteOptions {
  BenchShape shape;  // its cell is ignored: see cells
  std::vector<std::string> cells{"mlstm", "lstm"};
  std::vector<BenchMeasure> measures{BenchMeasure::Train, BenchMeasure::Eval, BenchMeasure::Sample};
  // Every engine subject and torch::nn::LSTM is measured at each (its shape.precision is
  // ignored); bf16 needs a CUDA device. The peer has no precision option: fp32 only.
  std::vector<BenchPrecision> precisions{BenchPrecision::Fp32};
  int repeats = 3;
  std::string self;       // the program whose `bench --probe` measures engine subjects
  bool torchLstm = true;  // measure torch::nn::LSTM too
  std::string peer;       // ../shared/bench/peer_mlstm.py, or "" to leave it out
  std::string python = "/usr/bin/python3";  // what runs the peer: Debian's, with python3-torch
  // Each subject measured twice a round: idle, then with processor 0 kept busy by a spinning
  // process (BusyCore), as on a desktop that runs something else.
  bool contention = false;
  // The machine's product ceiling (product_ceiling.h) measured once a round, in a child like
  // the subjects, so every row's GFLOP/s is also read as a share of it. On CUDA the child
  // measures the GPU's, float32 and bfloat16, and names the GPU.
  bool ceiling = true;
};

// The whole suite: every round runs each subject at each precision on each measure once, in
// turn (engine cells, then torch::nn::LSTM, then the peer's mLSTM and, when "lstm" is among
// the cells, its LSTM), each in a process of its own so that its peak memory (and on CUDA
// its GPU memory) is its own. The peer has no evaluation mode and is measured on training
// and sampling only, at fp32 only. Throws std::runtime_error naming the subject and quoting
// its error output when a measurement fails, and std::invalid_argument for a missing peer
// script, an unknown cell, no precision, or bf16 off CUDA.
// `job` (may be null) hears of each measurement as it starts and may cancel between them.
BenchReport runBenchSuite(const BenchSuiteOptions& options, JobContext* job = nullptr);

// The command-line words of one engine probe (`<self> bench --probe <measure> ...`).
std::vector<std::string> probeCommand(const std::string& self, const BenchShape& shape,
                                      BenchMeasure measure);

// Reads "key=value" words from a probe's or the peer's output: symbols/s (the peer's
// training prints chars_per_s), FLOPs per symbol, parameters, GPU memory (gpu_memory, bytes)
// and torch::nn::LSTM's recurrent_dtype where given. Throws
// std::runtime_error quoting the output when there is no rate in it.
ProbeResult parseProbeOutput(const std::string& output);

}  // namespace mrnn::engine
