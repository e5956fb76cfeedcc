#pragma once

#include "engine/bench/bench_shape.h"
#include "engine/bench/probe_result.h"

namespace mrnn::engine {

// Builds the shape's model (seed 0) on its device, runs one warm-up and then times
// shape.steps windows (training, evaluation) or shape.sampleLength symbols (sampling) on
// random symbols. shape.cell "torch-lstm" measures LibTorch's torch::nn::LSTM in the same
// model shape (torch_lstm_probe.h). Throws std::invalid_argument for an unknown cell or
// device, std::runtime_error when CUDA is asked for and absent.
ProbeResult runProbe(const BenchShape& shape, BenchMeasure measure);

}  // namespace mrnn::engine
