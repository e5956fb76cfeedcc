#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// What a benchmark measures: training (forward, backward, clipping, Adam), evaluation
// (forward only, no gradient, the same batch shape), single-stream sampling (batch 1,
// one symbol at a time, temperature 1), or Hessian-free's curvature product (one
// Gauss-Newton-vector product with structural damping over the window, as CG runs it: the
// linearisation kept, so each product is a forward-mode pass and a backward), or exact
// scoring: a text of random symbols scored as one stream by evaluateStatic, on the road it
// chooses (the frozen single stream, or `batch` streams re-read where they win the race),
// the rate of every exact held-out figure.
enum class BenchMeasure { Train, Eval, Sample, Curvature, Score };

const char* benchMeasureName(BenchMeasure measure);
std::optional<BenchMeasure> benchMeasureFromName(const std::string& name);

// The arithmetic a measurement runs at: float32, or LibTorch's autocast to bfloat16 (CUDA
// only: the products in bfloat16, reductions and the loss in float32; the weights, Adam and
// the recurrent state stay float32), as training's `bf16: true` does.
enum class BenchPrecision { Fp32, Bf16 };

const char* benchPrecisionName(BenchPrecision precision);  // "fp32", "bf16"
std::optional<BenchPrecision> benchPrecisionFromName(const std::string& name);

// The model and workload of one measurement, in the shape of ../shared/bench/peer_mlstm.py:
// embedding -> one recurrent layer -> softmax, on random symbols.
struct BenchShape {
  std::string cell = "mlstm";  // an engine cell type, or "torch-lstm" (LibTorch's own LSTM)
  int64_t hidden = 512;
  int64_t embedding = 64;
  int64_t batch = 32;
  int64_t bptt = 100;
  int64_t vocab = 128;
  int64_t steps = 10;           // timed windows (training, evaluation), after one warm-up
  int64_t sampleLength = 2000;  // timed symbols (sampling), after one warm-up generation
  int threads = 0;              // 0: LibTorch's default; kFollowLoad: see below
  // Where it runs: "cpu", "cuda" (the first GPU) or "cuda:N" (engine/config/device_name.h);
  // the probe resolves it with resolveComputeDevice, which says why when there is no such GPU.
  std::string device = "cpu";
  BenchPrecision precision = BenchPrecision::Fp32;  // Bf16 needs a CUDA device
  // The Mogrifier's rounds r and rank k (0: full-rank Q and R), the engine's own defaults
  // (Melis et al.: r = 5, k = 40); other cells ignore them.
  int mogrifierRounds = LayerConfig{}.rounds;
  int64_t mogrifierRank = LayerConfig{}.rank;
};

// `--threads auto`: the count follows the machine's load (ThreadGovernor), as training with
// `training.threads: 0` does: measured before the first window, then every second.
constexpr int kFollowLoad = -1;

// LibTorch's torch::nn::LSTM, measured beside the engine's cells as the reference.
constexpr const char* kTorchLstm = "torch-lstm";

}  // namespace mrnn::engine
