#pragma once

#include <torch/types.h>

#include <cstdint>

namespace mrnn::engine {

// What the reverse copy evaluation asks of a model: read B streams a window at a time and
// predict each next symbol. A language model is one (ModelCopyPredictor); the tests give it
// hand-built oracles whose every prediction is known, so the figures have exact answers.
class CopyPredictor {
 public:
  virtual ~CopyPredictor() = default;
  // The symbols predicted over: the task's V tokens, the marker and <eos>.
  virtual int64_t vocab() const = 0;
  // Starts `batch` fresh streams.
  virtual void reset(int64_t batch) = 0;
  // Continues every stream with inputs [T, B] (int64, on the CPU) and returns the
  // log-probabilities of the symbol after each input, [T, B, vocab()], on any device.
  virtual torch::Tensor read(const torch::Tensor& inputs) = 0;
};

}  // namespace mrnn::engine
