#pragma once

#include "engine/bench/bench_shape.h"
#include "engine/bench/probe_result.h"

namespace mrnn::engine {

// What a bf16 measurement off the GPU is told (autocast to bfloat16 is CUDA's).
inline constexpr const char* kBf16NeedsCuda = "--precision bf16 needs --device cuda";

// Builds the shape's model (seed 0) on its device, runs one warm-up and then times
// shape.steps windows (training, evaluation) or shape.sampleLength symbols (sampling) on
// random symbols, at shape.precision (bf16: the forward pass, the loss and the sampler's
// steps under AutocastScope, training through optimisationStep's bf16). shape.cell
// "torch-lstm" measures LibTorch's torch::nn::LSTM in the same model shape
// (torch_lstm_probe.h). On CUDA the result carries the device's memory in use after the
// timed part. Throws std::invalid_argument for an unknown cell, a device that is no device
// name or bf16 off CUDA, std::runtime_error when the GPU asked for is not there
// (resolveComputeDevice).
ProbeResult runProbe(const BenchShape& shape, BenchMeasure measure);

}  // namespace mrnn::engine
