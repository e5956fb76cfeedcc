#include "engine/config/training_memory.h"

namespace mrnn::engine {

double trainingBytes(const ModelConfig& model, int64_t parameters, int64_t vocab,
                     const TrainingConfig& training) {
  double widths = 0.0;
  for (const auto& layer : model.layers) {
    widths += static_cast<double>(layer.hiddenSize + layer.intermediateSize());
  }
  const double positions =
      static_cast<double>(training.bptt) * static_cast<double>(training.batchSize);
  return 4.0 * (5.0 * static_cast<double>(parameters) +
                positions * (8.0 * widths + 3.0 * static_cast<double>(vocab)));
}

double hostTrainingBytes(const ModelConfig& model, int64_t parameters, int64_t vocab,
                         const TrainingConfig& training, bool onGpu) {
  return onGpu ? 8.0 * static_cast<double>(parameters)
               : trainingBytes(model, parameters, vocab, training);
}

}  // namespace mrnn::engine
