// mrnn_weights_difference A.pt B.pt: the largest relative difference between two checkpoints'
// weights, max |a - b| / max |a| over each tensor, for the data-parallel tests (N ranks must
// follow one process's trajectory). Prints "max relative difference X (tensor)"; exits 1
// when the files hold different models.
#include <torch/torch.h>

#include <iostream>

#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/models/language_model.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: mrnn_weights_difference A.pt B.pt\n";
    return 2;
  }
  try {
    const auto a = mrnn::engine::loadModelFromCheckpoint(argv[1]);
    const auto b = mrnn::engine::loadModelFromCheckpoint(argv[2]);
    const auto left = a.model->named_parameters();
    const auto right = b.model->named_parameters();
    double worst = 0.0;
    std::string where = "none";
    for (const auto& entry : left) {
      const auto* other = right.find(entry.key());
      if (!other || other->sizes() != entry.value().sizes()) {
        std::cerr << "the checkpoints hold different models (" << entry.key() << ")\n";
        return 1;
      }
      const double scale = std::max(entry.value().abs().max().item<double>(), 1e-12);
      const double difference = (entry.value() - *other).abs().max().item<double>() / scale;
      if (difference >= worst) {
        worst = difference;
        where = entry.key();
      }
    }
    std::cout << "max relative difference " << worst << " (" << where << ")\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << error.what() << "\n";
    return 1;
  }
}
